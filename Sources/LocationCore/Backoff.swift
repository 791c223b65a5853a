/// Delays between reconnection attempts: `initial`, doubling up to `maximum`, back to `initial`
/// after a success.
///
/// A success is a connection that delivered data, not merely one that opened: a server that accepts
/// and hangs up at once, or a device that opens but errs on the first read, keeps backing off.
public struct Backoff: Sendable, Equatable {
    public var initial: Double
    public var maximum: Double
    private var next: Double

    /// - Precondition: `0 < initial <= maximum`, both finite.
    public init(initial: Double = 0.5, maximum: Double = 10) {
        precondition(initial > 0 && initial.isFinite && maximum >= initial && maximum.isFinite, "bad backoff")
        self.initial = initial
        self.maximum = maximum
        next = initial
    }

    /// The delay before the next attempt, seconds; each call doubles the following one.
    public mutating func nextDelay() -> Double {
        let delay = next
        next = min(next * 2, maximum)
        return delay
    }

    /// After a success: the next failure waits `initial` again.
    public mutating func reset() { next = initial }
}
