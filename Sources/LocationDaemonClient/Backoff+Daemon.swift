import LocationCore

extension Backoff {
    /// Reaching `locationd` again: short at first (a restarted daemon is usually back within a
    /// fraction of a second), doubling up to a cap low enough that apps resume within about a
    /// second of the daemon's return.
    static let daemonReconnection = Backoff(initial: 0.1, maximum: 1)
}
