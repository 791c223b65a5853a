import Foundation
import LocationCore
import LocationProtocol
import Testing
@testable import LocationSources

/// The sources on the production loop: real time, a dispatch queue. Bounds are generous (shared CI cores).
@Suite(.serialized) struct RealtimeLoopTests {
    final class Counter: Sendable {
        let fixes = Locked<[Fix]>([])
        var count: Int { fixes.withLock { $0.count } }
    }

    @Test(.timeLimit(.minutes(1)))
    func simulatedRouteRunsAtItsSpeedAndStopsForGood() {
        let loop = RealtimeLoop(label: "test.sources.realtime")
        let counter = Counter()
        let source = SimulatedRouteSource(route: .cityDrive, speed: 40)
        let started = Date()
        loop.sync { source.start(on: loop) { event in if case .fix(let fix) = event { counter.fixes.withLock { $0.append(fix) } } } }
        Thread.sleep(forTimeInterval: 0.5)
        loop.sync { source.stop() }
        let elapsed = Date().timeIntervalSince(started)
        let count = counter.count
        // About 40 fixes per second of wall time.
        #expect(Double(count) >= 40 * elapsed * 0.5 && Double(count) <= 40 * elapsed + 2, "\(count) fixes in \(elapsed) s")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(counter.count == count, "nothing after stop")
        let stamps = counter.fixes.withLock { $0.map(\.timestamp) }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { abs($1.timeIntervalSince($0) - 1) < 1e-6 })
    }

    @Test(.timeLimit(.minutes(1)))
    func fixedSourceTicksEverySecond() {
        let loop = RealtimeLoop(label: "test.sources.fixed")
        let counter = Counter()
        let source = FixedSource(latitude: 1, longitude: 2)
        loop.sync { source.start(on: loop) { event in if case .fix(let fix) = event { counter.fixes.withLock { $0.append(fix) } } } }
        Thread.sleep(forTimeInterval: 1.3)
        loop.sync { source.stop() }
        #expect(counter.count == 2)
    }
}
