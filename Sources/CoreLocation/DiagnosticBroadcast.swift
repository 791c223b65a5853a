import LocationCore

/// The diagnostics of a session: the current value, given to every new iteration at once and then
/// each change, until the session ends (every iteration then finishes).
final class DiagnosticBroadcast<Element: Sendable & Equatable>: Sendable {
    private struct State {
        var current: Element
        var listeners: [UInt64: AsyncStream<Element>.Continuation] = [:]
        var lastID: UInt64 = 0
        var finished = false
    }

    private let state: Locked<State>

    init(_ initial: Element) {
        state = Locked(State(current: initial))
    }

    var current: Element { state.withLock { $0.current } }

    func update(_ value: Element) {
        let listeners = state.withLock { state -> [AsyncStream<Element>.Continuation] in
            guard !state.finished, value != state.current else { return [] }
            state.current = value
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(value) }
    }

    func stream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(64))
        let id = state.withLock { state -> UInt64? in
            guard !state.finished else { return nil }
            state.lastID += 1
            state.listeners[state.lastID] = continuation
            continuation.yield(state.current)
            return state.lastID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    func finish() {
        let listeners = state.withLock { state -> [AsyncStream<Element>.Continuation] in
            state.finished = true
            defer { state.listeners.removeAll() }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }
}
