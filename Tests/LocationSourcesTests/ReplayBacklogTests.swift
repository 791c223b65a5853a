import Foundation
import LocationCore
import LocationProtocol
import Testing
@testable import LocationSources

/// A loop whose clock jumps when the test says, running then whatever is due: a loop that fell behind.
private final class LaggingLoop: EngineLoop {
    private struct Job {
        var deadline: Date
        var handle: ScheduledWork
        var work: @Sendable () -> Void
    }

    private let state = Locked((now: VirtualLoop.defaultEpoch, jobs: [Job](), running: false))

    var now: Date { state.withLock { $0.now } }
    var inLoop: Bool { state.withLock { $0.running } }

    func execute(_ work: @escaping @Sendable () -> Void) { schedule(at: now, work) }

    @discardableResult
    func schedule(at deadline: Date, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let handle = ScheduledWork()
        state.withLock { $0.jobs.append(Job(deadline: deadline, handle: handle, work: work)) }
        return handle
    }

    /// Jumps the clock by `seconds`, then runs the work due by then (and work it schedules that is
    /// due too), with the clock standing at the jump's end.
    func jump(by seconds: TimeInterval) {
        state.withLock { $0.now = $0.now.addingTimeInterval(seconds) }
        while let job = state.withLock({ state -> Job? in
            guard let index = state.jobs.firstIndex(where: { $0.deadline <= state.now }) else { return nil }
            state.running = true
            return state.jobs.remove(at: index)
        }) {
            if !job.handle.isCancelled { job.work() }
            state.withLock { $0.running = false }
        }
    }
}

/// How much a replay that falls behind catches up, and when it skips instead.
@Suite struct ReplayBacklogTests {
    private func replay(speed: Double, lag: TimeInterval) -> [Fix] {
        let loop = LaggingLoop()
        let fixes = Locked<[Fix]>([])
        let source = SimulatedRouteSource(route: .freewayDrive, speed: speed)
        source.start(on: loop) { event in if case .fix(let fix) = event { fixes.withLock { $0.append(fix) } } }
        loop.jump(by: 0)
        loop.jump(by: lag)
        source.stop()
        return fixes.withLock { $0 }
    }

    /// At 3600 simulated seconds per second, 50 ms late is 180 samples: all of them are delivered,
    /// a simulated second apart (a real clock's jitter must not drop fixes from a fast replay).
    @Test func aFastReplayCatchesUpAfterAFewMilliseconds() {
        let fixes = replay(speed: 3600, lag: 0.05)
        #expect(fixes.count == 181)
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $1.timestamp.timeIntervalSince($0.timestamp) == 1 })
    }

    /// Behind by more than a quarter of a second of loop time, the overdue samples are skipped: the
    /// replay goes on from where the device is now, with no burst.
    @Test(arguments: [(3600.0, 10.0), (1, 30), (60, 1)])
    func aLongStallIsSkippedNotReplayed(speed: Double, lag: TimeInterval) {
        let fixes = replay(speed: speed, lag: lag)
        #expect(fixes.count == 2, "the first fix, then the one due now")
        let gap = fixes.count == 2 ? fixes[1].timestamp.timeIntervalSince(fixes[0].timestamp) : 0
        #expect(abs(gap - speed * lag) < 1e-6)
    }

    /// At speed 1 the limit is the ten samples past the next one that it always was.
    @Test func aSlowReplayCatchesUpElevenSeconds() {
        #expect(replay(speed: 1, lag: 11).count == 12)
        #expect(replay(speed: 1, lag: 12).count == 2)
    }
}
