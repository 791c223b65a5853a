import Foundation
import LocationCore

/// A loop whose clock stands still and whose work runs only in `step()`, and then only the work
/// that was waiting when the step began: unlike `VirtualLoop.run()`, a step ends even while another
/// thread keeps adding work (a stream that is flooded).
final class SteppedLoop: EngineLoop {
    private struct Job {
        var deadline: Date
        var handle: ScheduledWork
        var work: @Sendable () -> Void
    }

    private let jobs = Locked<[Job]>([])
    private let runningThread = Locked<Thread?>(nil)
    let now = VirtualLoop.defaultEpoch

    var inLoop: Bool { runningThread.withLock { $0 === Thread.current } }

    func execute(_ work: @escaping @Sendable () -> Void) {
        schedule(at: now, work)
    }

    @discardableResult
    func schedule(at deadline: Date, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let handle = ScheduledWork()
        jobs.withLock { $0.append(Job(deadline: deadline, handle: handle, work: work)) }
        return handle
    }

    /// Work still waiting, due or not (cancelled work not counted).
    var pendingCount: Int { jobs.withLock { $0.filter { !$0.handle.isCancelled }.count } }

    /// Runs, in order, the due work that was waiting when it was called.
    func step() {
        let due = jobs.withLock { jobs -> [Job] in
            let due = jobs.filter { $0.deadline <= now }
            jobs.removeAll { $0.deadline <= now || $0.handle.isCancelled }
            return due
        }
        runningThread.withLock { $0 = Thread.current }
        defer { runningThread.withLock { $0 = nil } }
        for job in due where !job.handle.isCancelled { job.work() }
    }
}
