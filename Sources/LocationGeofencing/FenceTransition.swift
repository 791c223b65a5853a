import LocationProtocol

/// A fence whose state a fix changed.
public struct FenceTransition: Equatable, Sendable {
    public var key: FenceKey
    public var from: FenceState
    public var to: FenceState

    public init(key: FenceKey, from: FenceState, to: FenceState) {
        self.key = key
        self.from = from
        self.to = to
    }
}
