import Foundation
import LocationCore
import LocationGeodesy
import LocationProtocol
import LocationSources
import Testing
@testable import LocationEngine

@Suite struct LocationEngineDeliveryTests {
    private func distance(_ a: Fix, _ b: Fix) -> Double {
        Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
    }

    @Test func distanceFilterNoneDeliversEveryFixInOrder() {
        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: [TickingSource(script: TestFixes.movingEast(speed: 10))])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(distanceFilter: -1, pausesAutomatically: false)) { log.record($0) }
        loop.advance(by: 59.5)
        #expect(log.fixes.count == 60)
        #expect(zip(log.fixes, log.fixes.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    @Test(arguments: [25.0, 50.0, 95.0])
    func distanceFilterIsMeasuredFromTheLastDeliveredFix(filter: Double) {
        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: [TickingSource(script: TestFixes.movingEast(speed: 10))])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(distanceFilter: filter)) { log.record($0) }
        loop.advance(by: 120)
        let fixes = log.fixes
        #expect(fixes.count > 5)
        for (a, b) in zip(fixes, fixes.dropFirst()) {
            let gap = distance(a, b)
            #expect(gap >= filter - 0.01)
            #expect(gap < filter + 10.01, "a fix 10 m further would have passed the filter earlier")
        }
    }

    @Test func coarseDesiredAccuracyThinsTheStream() {
        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: [TickingSource(script: TestFixes.movingEast(speed: 10))])
        let best = EventLog(), kilometre = EventLog()
        _ = engine.subscribe(UpdateRequest(desiredAccuracy: -1)) { best.record($0) }
        _ = engine.subscribe(UpdateRequest(desiredAccuracy: 1_000)) { kilometre.record($0) }
        loop.advance(by: 299.5)
        #expect(best.fixes.count == 300)
        // 3 km travelled with an implicit 500 m filter: the first fix, then one per 500 m.
        #expect(kilometre.fixes.count == 6)
    }

    @Test func aMuchMoreAccurateFixPassesTheDistanceFilter() {
        let loop = VirtualLoop()
        let source = TickingSource { tick, now in
            .fix(Fix(latitude: 0, longitude: 0, horizontalAccuracy: tick < 3 ? 65 : 5, timestamp: now))
        }
        let engine = LocationEngine(loop: loop, sources: [source])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(distanceFilter: 100, pausesAutomatically: false)) { log.record($0) }
        loop.advance(by: 10)
        #expect(log.fixes.map(\.horizontalAccuracy) == [65, 5])
    }

    @Test func newSubscriberGetsTheCachedFixFirst() {
        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: [TickingSource(script: TestFixes.movingEast(speed: 10))])
        let first = engine.subscribe(UpdateRequest()) { _ in }
        loop.advance(by: 30.5)
        let cached = engine.status.lastFix
        first.cancel()
        loop.advance(by: 600)

        let log = EventLog()
        _ = engine.subscribe(UpdateRequest()) { log.record($0) }
        loop.run()
        #expect(log.fixes.first == cached, "the cached fix comes first, before the source has one")
        #expect(loop.now.timeIntervalSince(log.fixes[0].timestamp) > 600, "the cached fix keeps its old timestamp")
        loop.advance(by: 1)
        #expect(log.fixes.count >= 2)
        #expect(log.fixes.dropFirst().allSatisfy { $0.timestamp > cached!.timestamp })
    }
}
