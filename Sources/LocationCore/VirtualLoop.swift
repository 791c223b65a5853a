import Foundation

/// A loop whose time moves only when told to: the deterministic engine for tests and fast replays.
///
/// Work runs on the thread that calls `advance` or `run`, in deadline order (ties in the order they
/// were scheduled), and `now` is set to each piece of work's deadline before it runs — the model of
/// SwiftNIO's `EmbeddedEventLoop`.
public final class VirtualLoop: EngineLoop {
    private struct Job {
        let deadline: Date
        let sequence: UInt64
        let handle: ScheduledWork
        let work: @Sendable () -> Void
    }

    private struct State {
        var now: Date
        var jobs: [Job] = []
        var sequence: UInt64 = 0
        var runningThread: Thread?
    }

    private let state: Locked<State>

    /// 2026-01-01T00:00:00Z: a fixed epoch so timestamps in tests never depend on the day they run.
    public static let defaultEpoch = Date(timeIntervalSince1970: 1_767_225_600)

    public init(now: Date = VirtualLoop.defaultEpoch) {
        state = Locked(State(now: now))
    }

    public var now: Date { state.withLock { $0.now } }

    public var inLoop: Bool { state.withLock { $0.runningThread === Thread.current } }

    public func execute(_ work: @escaping @Sendable () -> Void) {
        schedule(at: now, work)
    }

    @discardableResult
    public func schedule(at deadline: Date, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let handle = ScheduledWork()
        state.withLock { state in
            state.sequence += 1
            state.jobs.append(Job(deadline: max(deadline, state.now), sequence: state.sequence, handle: handle, work: work))
        }
        return handle
    }

    /// Runs everything that is due now, including work that this work schedules for now.
    public func run() { advance(to: now) }

    /// Moves time forward by `interval` seconds, running all work that falls due on the way.
    public func advance(by interval: TimeInterval) { advance(to: now.addingTimeInterval(interval)) }

    /// Moves time forward to `target`, running all work that falls due on the way.
    public func advance(to target: Date) {
        let previous = state.withLock { state -> Thread? in
            let previous = state.runningThread
            state.runningThread = Thread.current
            return previous
        }
        defer { state.withLock { $0.runningThread = previous } }
        while let job = nextJob(dueBy: target) {
            if !job.handle.isCancelled { job.work() }
        }
        state.withLock { state in if state.now < target { state.now = target } }
    }

    /// Work still waiting (cancelled work not counted).
    public var pendingCount: Int { state.withLock { $0.jobs.filter { !$0.handle.isCancelled }.count } }

    private func nextJob(dueBy target: Date) -> Job? {
        state.withLock { state in
            guard let index = state.jobs.indices.min(by: { a, b in
                let x = state.jobs[a], y = state.jobs[b]
                return (x.deadline, x.sequence) < (y.deadline, y.sequence)
            }), state.jobs[index].deadline <= target else { return nil }
            let job = state.jobs.remove(at: index)
            if job.deadline > state.now { state.now = job.deadline }
            return job
        }
    }
}
