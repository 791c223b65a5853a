import LocationCore
import LocationProtocol

/// Where the daemon keeps the last known location between runs. The implementation must seal what it
/// writes: nothing holding a coordinate is ever written in the clear.
public protocol LastLocationStorage: Sendable {
    func save(_ fix: Fix) throws
    /// nil when nothing was saved yet.
    func load() throws -> Fix?
}
