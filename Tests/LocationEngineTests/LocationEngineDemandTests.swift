import Foundation
import LocationCore
import LocationProtocol
import LocationSources
import Testing
@testable import LocationEngine

@Suite struct LocationEngineDemandTests {
    @Test func sourceRunsOnlyWhileSomeoneSubscribes() {
        let loop = VirtualLoop()
        let source = TickingSource(script: TestFixes.movingEast(speed: 10))
        let engine = LocationEngine(loop: loop, sources: [source])
        loop.advance(by: 10)
        #expect(source.starts == 0)
        #expect(engine.status.activeSource == nil)

        let log = EventLog()
        let subscription = engine.subscribe(UpdateRequest()) { log.record($0) }
        loop.advance(by: 10)
        #expect(source.running)
        #expect(engine.status.activeSource == "test")

        subscription.cancel()
        loop.advance(by: 10)
        #expect(!source.running)
        #expect(engine.status.activeSource == nil)
        #expect(source.starts == 1)
    }

    @Test func energyIsPowerTimesRunningTime() {
        let loop = VirtualLoop()
        let source = TickingSource(power: 500, script: TestFixes.movingEast(speed: 10))
        let engine = LocationEngine(loop: loop, sources: [source])
        let subscription = engine.subscribe(UpdateRequest()) { _ in }
        loop.advance(by: 60)
        subscription.cancel()
        loop.advance(by: 60)
        let energy = engine.status.energy
        #expect(abs(energy.joules - 0.5 * 60) < 0.01)
        #expect(abs((energy.runningTime["test"] ?? 0) - 60) < 0.01)
    }

    @Test func coarseDemandUsesTheCheaperSourceAndFineDemandTheAccurateOne() {
        let loop = VirtualLoop()
        let gps = TickingSource(name: "gps", accuracy: 5, power: 500, script: TestFixes.movingEast(speed: 10))
        let coarse = TickingSource(name: "coarse", accuracy: 300, power: 20, script: TestFixes.movingEast(speed: 10, accuracy: 300))
        let engine = LocationEngine(loop: loop, sources: [gps, coarse])

        let kilometre = engine.subscribe(UpdateRequest(desiredAccuracy: 1_000)) { _ in }
        loop.advance(by: 5)
        #expect(engine.status.activeSource == "coarse")
        #expect(!gps.running)

        let best = engine.subscribe(UpdateRequest(desiredAccuracy: -1)) { _ in }
        loop.advance(by: 5)
        #expect(engine.status.activeSource == "gps")
        #expect(!coarse.running)

        best.cancel()
        loop.advance(by: 5)
        #expect(engine.status.activeSource == "coarse")
        kilometre.cancel()
        loop.advance(by: 1)
        #expect(engine.status.activeSource == nil)
    }

    @Test func noSourceMeansLocationUnknownOnce() {
        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: [])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest()) { log.record($0) }
        loop.advance(by: 30)
        #expect(log.events == [.failed(.locationUnknown)])
    }

    @Test func lostFixIsReportedOnceAndRecovers() {
        let loop = VirtualLoop()
        let moving = TestFixes.movingEast(speed: 10)
        let source = TickingSource { tick, now in
            (5..<10).contains(tick) ? .noFix(reason: "tunnel") : moving(tick, now)
        }
        let engine = LocationEngine(loop: loop, sources: [source])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest()) { log.record($0) }
        loop.advance(by: 14.5)
        #expect(log.count(of: .failed(.locationUnknown)) == 1)
        #expect(log.fixes.count == 10)
        let unknownIndex = log.events.firstIndex(of: .failed(.locationUnknown))!
        #expect(log.events[..<unknownIndex].count == 5)
    }

    @Test func finishedSourceIsReportedAndReleased() {
        let loop = VirtualLoop()
        let moving = TestFixes.movingEast(speed: 10)
        let source = TickingSource { tick, now in tick < 3 ? moving(tick, now) : .finished }
        let engine = LocationEngine(loop: loop, sources: [source])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest()) { log.record($0) }
        loop.advance(by: 10)
        #expect(log.fixes.count == 3)
        #expect(log.count(of: .sourceFinished) == 1)
        #expect(!source.running)
    }
}
