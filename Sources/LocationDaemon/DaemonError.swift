/// Why the daemon cannot start (or do something it was asked to).
public struct DaemonError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
