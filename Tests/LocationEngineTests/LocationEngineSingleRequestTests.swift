import Foundation
import LocationCore
import LocationProtocol
import LocationSources
import Testing
@testable import LocationEngine

@Suite struct LocationEngineSingleRequestTests {
    @Test func deliversOneFixThenCompletesAndReleasesTheSource() {
        let loop = VirtualLoop()
        let source = TickingSource(script: TestFixes.movingEast(speed: 10))
        let engine = LocationEngine(loop: loop, sources: [source])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(mode: .single)) { log.record($0) }
        loop.advance(by: 30)
        #expect(log.fixes.count == 1)
        #expect(log.events.last == .completed)
        #expect(!source.running)
    }

    @Test func waitsForTheDesiredAccuracy() {
        let loop = VirtualLoop()
        let source = TickingSource { tick, now in
            .fix(Fix(latitude: 1, longitude: 2, horizontalAccuracy: [200, 80, 40, 8][min(tick, 3)], timestamp: now))
        }
        let engine = LocationEngine(loop: loop, sources: [source])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(mode: .single, desiredAccuracy: 10)) { log.record($0) }
        loop.advance(by: 30)
        #expect(log.fixes.map(\.horizontalAccuracy) == [8])
    }

    @Test func deliversTheBestFixRatherThanFailingWhenAccuracyTakesTooLong() {
        let loop = VirtualLoop()
        let source = TickingSource { tick, now in
            .fix(Fix(latitude: 1, longitude: 2, horizontalAccuracy: tick == 4 ? 60 : 90, timestamp: now))
        }
        let engine = LocationEngine(loop: loop, sources: [source])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(mode: .single, desiredAccuracy: 10)) { log.record($0) }
        loop.advance(by: 9.5)
        #expect(log.events.isEmpty)
        loop.advance(by: 1)
        #expect(log.fixes.map(\.horizontalAccuracy) == [60])
        #expect(log.events.last == .completed)
    }

    @Test func failsWithLocationUnknownWhenNoFixArrivesInTime() {
        let loop = VirtualLoop()
        let source = TickingSource { _, _ in .noFix(reason: "no satellites") }
        let engine = LocationEngine(loop: loop, sources: [source])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(mode: .single)) { log.record($0) }
        loop.advance(by: 9.9)
        #expect(log.events.isEmpty)
        loop.advance(by: 0.2)
        #expect(log.events == [.failed(.locationUnknown), .completed])
        #expect(!source.running)
    }
}
