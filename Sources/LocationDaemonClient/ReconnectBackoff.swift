import Foundation

/// The delays between attempts to reach `locationd` again: short at first (a restarted daemon is
/// usually back within a fraction of a second), doubling up to a cap low enough that apps resume
/// within about a second of the daemon's return.
struct ReconnectBackoff: Sendable, Equatable {
    var initial: TimeInterval = 0.1
    var maximum: TimeInterval = 1
    private var upcoming: TimeInterval?

    init(initial: TimeInterval = 0.1, maximum: TimeInterval = 1) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before the next attempt.
    mutating func next() -> TimeInterval {
        let delay = upcoming ?? initial
        upcoming = min(delay * 2, maximum)
        return delay
    }

    /// A connection succeeded: the next failure starts from the shortest delay again.
    mutating func reset() { upcoming = nil }
}
