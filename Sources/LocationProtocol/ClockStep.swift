import Foundation

/// Telling a replayed sample from the wall clock going back.
///
/// Streams drop a sample no newer than the last one they delivered: a receiver repeating an epoch, a
/// daemon offering its last fix again after a reconnection. But when the system clock is stepped back
/// (NTP correcting a clock that ran ahead, an administrator fixing the date), every new sample is
/// older than the last, and a stream that kept dropping them would go silent until the clock caught
/// up again — an hour, for an hour's step. A replay is never stamped later than now; a last sample
/// stamped later than now (by more than `tolerance`) means the clock went back.
public enum ClockStep {
    /// Seconds a sample's time may lie ahead of the clock before it counts as from the future:
    /// receivers stamp fixes with their own (GPS) time, which may lead a drifting system clock.
    public static let tolerance: TimeInterval = 60

    /// True when `last` lies in the future of `now`: the clock went back since it was delivered.
    public static func wentBack(since last: Date, now: Date) -> Bool {
        last.timeIntervalSince(now) > tolerance
    }

    /// Whether a sample stamped `timestamp` is stale after one stamped `last`: not newer, and the
    /// clock did not go back.
    public static func isStale(_ timestamp: Date, after last: Date, now: Date) -> Bool {
        timestamp <= last && !wentBack(since: last, now: now)
    }
}
