import Foundation
import LocationCore

/// Notices a connection that stays open but silent (a receiver powered off behind a serial adapter,
/// gpsd with no device): `onSilence` runs on the loop after `timeout` seconds without `activity()`,
/// then again after every further `timeout` of silence.
///
/// It keeps one scheduled check at a time and re-arms lazily, so reporting activity costs only a
/// store, not a new timer per byte.
final class SilenceWatchdog: Sendable {
    let timeout: TimeInterval

    private struct State {
        var lastActivity: Date?
        var check: ScheduledWork?
        var armed = false
        var generation: UInt64 = 0
    }

    private let state = Locked(State())

    init(timeout: TimeInterval) {
        precondition(timeout > 0)
        self.timeout = timeout
    }

    /// Starts watching, counting from now. Call inside `loop`.
    func arm(on loop: any EngineLoop, onSilence: @escaping @Sendable () -> Void) {
        disarm()
        let generation = state.withLock { state in
            state.armed = true
            state.generation &+= 1
            state.lastActivity = loop.now
            return state.generation
        }
        schedule(at: loop.now.addingTimeInterval(timeout), generation: generation, on: loop, onSilence: onSilence)
    }

    /// Something arrived. Call inside the loop.
    func activity(at now: Date) {
        state.withLock { $0.lastActivity = now }
    }

    func disarm() {
        let check = state.withLock { state -> ScheduledWork? in
            state.armed = false
            state.generation &+= 1
            defer { state.check = nil }
            return state.check
        }
        check?.cancel()
    }

    private func schedule(at deadline: Date, generation: UInt64, on loop: any EngineLoop,
                          onSilence: @escaping @Sendable () -> Void) {
        let work = loop.schedule(at: deadline) { [self] in
            let due: (fire: Bool, next: Date)? = state.withLock { state in
                guard state.armed, state.generation == generation, let last = state.lastActivity else { return nil }
                let silentUntil = last.addingTimeInterval(timeout)
                if loop.now >= silentUntil {
                    state.lastActivity = loop.now
                    return (true, loop.now.addingTimeInterval(timeout))
                }
                return (false, silentUntil)
            }
            guard let due else { return }
            if due.fire { onSilence() }
            schedule(at: due.next, generation: generation, on: loop, onSilence: onSilence)
        }
        let keep = state.withLock { state -> Bool in
            guard state.armed, state.generation == generation else { return false }
            state.check = work
            return true
        }
        if !keep { work.cancel() }
    }
}
