/// Why the daemon could not tell who a client is. Such a client is refused: it is never served
/// under a guessed identity.
public struct PeerIdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
