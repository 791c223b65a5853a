import Foundation
import LocationCore
import LocationProtocol
import TestSupport
import Testing
@testable import LocationSources

/// The sources on the production loop: real time, a dispatch queue. Bounds are generous (shared CI cores).
@Suite(.serialized) struct RealtimeLoopTests {
    final class Counter: Sendable {
        let fixes = Locked<[Fix]>([])
        let arrivals = Locked<[Date]>([])
        var count: Int { fixes.withLock { $0.count } }

        func record(_ event: SourceEvent) {
            guard case .fix(let fix) = event else { return }
            arrivals.withLock { $0.append(Date()) }
            fixes.withLock { $0.append(fix) }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func simulatedRouteRunsAtItsSpeedAndStopsForGood() async {
        let loop = RealtimeLoop(label: "test.sources.realtime")
        let counter = Counter()
        let source = SimulatedRouteSource(route: .cityDrive, speed: 40)
        let started = Date()
        loop.sync { source.start(on: loop, emit: counter.record) }
        // Half a second's worth; the rate is checked against the time it really took.
        #expect(await eventually { counter.count >= 20 })
        loop.sync { source.stop() }
        let elapsed = Date().timeIntervalSince(started)
        let count = counter.count
        // About 40 fixes per second of wall time.
        #expect(Double(count) >= 40 * elapsed * 0.5 && Double(count) <= 40 * elapsed + 2, "\(count) fixes in \(elapsed) s")
        #expect(await !eventually(timeout: .milliseconds(200)) { counter.count != count }, "nothing after stop")
        let stamps = counter.fixes.withLock { $0.map(\.timestamp) }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { abs($1.timeIntervalSince($0) - 1) < 1e-6 })
    }

    @Test(.timeLimit(.minutes(2)))
    func fixedSourceTicksEverySecond() async {
        let loop = RealtimeLoop(label: "test.sources.fixed")
        let counter = Counter()
        let source = FixedSource(latitude: 1, longitude: 2)
        let started = Date()
        loop.sync { source.start(on: loop, emit: counter.record) }
        #expect(await eventually { counter.count >= 2 })
        loop.sync { source.stop() }
        // At once, then every second (as the fixes arrived, not as this task saw them).
        let arrivals = counter.arrivals.withLock { $0 }
        #expect(arrivals.first.map { $0.timeIntervalSince(started) < 0.5 } == true, "the first fix at once")
        let intervals = zip(arrivals, arrivals.dropFirst()).map { $1.timeIntervalSince($0) }
        #expect(!intervals.isEmpty && intervals.allSatisfy { $0 >= 0.95 && $0 < 1.3 }, "\(intervals) s between fixes")
    }
}
