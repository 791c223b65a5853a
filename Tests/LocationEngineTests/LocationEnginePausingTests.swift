import Foundation
import LocationCore
import LocationProtocol
import LocationSources
import Testing
@testable import LocationEngine

@Suite struct LocationEnginePausingTests {
    @Test(arguments: [
        (UpdateRequest.Activity.other, 300.0),
        (.automotiveNavigation, 600.0),
        (.fitness, 600.0),
        (.otherNavigation, 600.0),
        (.airborne, 1800.0),
    ])
    func pausesAfterTheActivitysStationaryDelay(activity: UpdateRequest.Activity, delay: Double) {
        let loop = VirtualLoop()
        let source = TickingSource(script: TestFixes.standingStill())
        let engine = LocationEngine(loop: loop, sources: [source])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(activity: activity)) { log.record($0) }
        loop.advance(by: delay - 2)
        #expect(log.count(of: .paused) == 0)
        loop.advance(by: 4)
        #expect(log.count(of: .paused) == 1)
        // A paused subscriber creates no demand: the receiver powers down.
        #expect(!source.running)
        #expect(engine.status.demandingCount == 0)
    }

    @Test func neverPausesWhenNotAllowedOrWhileMoving() {
        let loop = VirtualLoop()
        let still = EngineTuning().stationaryDelay(for: .other)
        let engine = LocationEngine(loop: loop, sources: [TickingSource(script: TestFixes.standingStill())])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(pausesAutomatically: false)) { log.record($0) }
        loop.advance(by: still * 3)
        #expect(log.count(of: .paused) == 0)

        let moving = LocationEngine(loop: loop, sources: [TickingSource(script: TestFixes.movingEast(speed: 1.4))])
        let walker = EventLog()
        _ = moving.subscribe(UpdateRequest()) { walker.record($0) }
        loop.advance(by: still * 3)
        #expect(walker.count(of: .paused) == 0)
    }

    @Test func resumeRestartsTheSourceWithANewInitialEvent() {
        let loop = VirtualLoop()
        let source = TickingSource(script: TestFixes.standingStill())
        let engine = LocationEngine(loop: loop, sources: [source])
        let log = EventLog()
        let subscription = engine.subscribe(UpdateRequest()) { log.record($0) }
        loop.advance(by: 400)
        #expect(log.count(of: .paused) == 1)
        let before = log.fixes.count
        let cached = engine.status.lastFix
        subscription.resume()
        loop.run()
        #expect(source.running)
        #expect(log.fixes.count > before)
        #expect(log.fixes[before] == cached, "the cached fix is the new initial event")
    }

    @Test func liveUpdatesReportStationarityAndMovementAgain() {
        let loop = VirtualLoop()
        let still = TestFixes.standingStill()
        // Still for 10 minutes, then walking east.
        let source = TickingSource { tick, now in
            tick < 600 ? still(tick, now) : .fix(Fix(
                latitude: 10, longitude: 20 + Double(tick - 600) * 1.4 / 109_640, horizontalAccuracy: 5,
                speed: 1.4, speedAccuracy: 0.5, course: 90, courseAccuracy: 5, timestamp: now))
        }
        let engine = LocationEngine(loop: loop, sources: [source])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(mode: .live, pausesAutomatically: false)) { log.record($0) }
        loop.advance(by: 900)
        #expect(log.events.filter { if case .stationary = $0 { true } else { false } } == [.stationary(true), .stationary(false)])
        let becameStill = log.events.firstIndex(of: .stationary(true))!
        let moving = log.events.firstIndex(of: .stationary(false))!
        #expect(log.events[becameStill..<moving].allSatisfy { if case .locations = $0 { false } else { true } })
        #expect(source.running, "live updates keep watching for movement")
    }
}
