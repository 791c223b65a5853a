import LocationCore

/// A monitor's one stream of events: each event goes to exactly one waiting `next()`, the one
/// that has waited longest, or waits in a buffer until someone asks.
///
/// `AsyncStream` allows a single waiting task; a monitor's `events` may be iterated by several
/// tasks at once (and again after an iteration ended), so the queue keeps its own waiters.
final class MonitorEventQueue: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<CLMonitor.Event?, Never>
    }

    private struct State {
        var buffer: [CLMonitor.Event] = []
        var waiters: [Waiter] = []
        var lastWaiterID: UInt64 = 0
        var finished = false
    }

    /// Events kept while nobody iterates; beyond this the oldest go.
    static let capacity = 1024

    private let state = Locked(State())

    /// Hands `event` to the longest waiting `next()`, or buffers it. Returns false when the
    /// buffer was full and the oldest event had to go.
    @discardableResult
    func yield(_ event: CLMonitor.Event) -> Bool {
        let (waiter, kept) = state.withLock { state -> (Waiter?, Bool) in
            guard !state.finished else { return (nil, true) }
            if !state.waiters.isEmpty { return (state.waiters.removeFirst(), true) }
            state.buffer.append(event)
            guard state.buffer.count > Self.capacity else { return (nil, true) }
            state.buffer.removeFirst(state.buffer.count - Self.capacity)
            return (nil, false)
        }
        waiter?.continuation.resume(returning: event)
        return kept
    }

    /// Ends every iteration once the buffered events are taken.
    func finish() {
        let waiters = state.withLock { state -> [Waiter] in
            state.finished = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }

    /// The next event; nil when the queue is finished or the calling task is cancelled.
    func next() async -> CLMonitor.Event? {
        let id = state.withLock { state -> UInt64 in
            state.lastWaiterID += 1
            return state.lastWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> CLMonitor.Event?? in
                    if !state.buffer.isEmpty { return .some(state.buffer.removeFirst()) }
                    // Checked under the lock that the cancellation handler takes too: either the
                    // handler finds this waiter, or this sees the cancellation.
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .none
                }
                if case .some(let event) = ready { continuation.resume(returning: event) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: nil)
        }
    }
}
