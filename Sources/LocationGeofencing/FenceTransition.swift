import Foundation
import LocationProtocol

/// A fence whose state a fix changed.
public struct FenceTransition: Equatable, Sendable {
    public var key: FenceKey
    public var from: FenceState
    public var to: FenceState
    /// When the boundary was crossed, as the fixes around it put it (the fix that decides comes a
    /// margin later); nil when no fix was seen near the boundary on the other side.
    public var crossedAt: Date?

    public init(key: FenceKey, from: FenceState, to: FenceState, crossedAt: Date? = nil) {
        self.key = key
        self.from = from
        self.to = to
        self.crossedAt = crossedAt
    }
}
