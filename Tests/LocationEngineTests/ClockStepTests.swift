import Foundation
import LocationCore
import LocationProtocol
import LocationSources
import Testing
@testable import LocationEngine

/// A virtual loop whose wall clock (`now`) can be stepped without moving its timers, as
/// `RealtimeLoop`'s timers follow the monotonic clock while `now` is the system's wall clock.
final class SteppedWallClockLoop: EngineLoop, @unchecked Sendable {
    let base = VirtualLoop()
    private let offset = Locked<TimeInterval>(0)

    var now: Date { base.now.addingTimeInterval(offset.withLock { $0 }) }
    var inLoop: Bool { base.inLoop }
    func execute(_ work: @escaping @Sendable () -> Void) { base.execute(work) }

    func schedule(at deadline: Date, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        base.schedule(at: deadline.addingTimeInterval(-offset.withLock { $0 }), work)
    }

    /// Steps the wall clock by `seconds` (negative: back), as NTP or an administrator does.
    func stepWallClock(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    func advance(by interval: TimeInterval) { base.advance(by: interval) }
}

/// When the system clock is stepped an hour back, every new fix is older than the last one
/// delivered; streams must not take that for a replay and go silent for the hour.
@Suite struct ClockStepTests {
    @Test(arguments: [-3600.0, 3600.0, -86_400.0])
    func aStreamGoesOnWhenTheWallClockIsStepped(step: TimeInterval) {
        let loop = SteppedWallClockLoop()
        let engine = LocationEngine(loop: loop, sources: [TickingSource(script: TestFixes.movingEast(speed: 10))])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(distanceFilter: -1, pausesAutomatically: false)) { log.record($0) }
        loop.advance(by: 9.5)
        #expect(log.fixes.count == 10)
        loop.stepWallClock(by: step)
        loop.advance(by: 10)
        #expect(log.fixes.count == 20, "a fix a second goes on after a step of \(step) s")
        let after = log.fixes.dropFirst(10)
        #expect(after.allSatisfy { abs($0.timestamp.timeIntervalSince(loop.now)) <= 11 }, "stamped on the new clock")
        #expect(zip(after, after.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    @Test func aRepeatedFixIsStillDroppedWhenTheClockDidNotMove() {
        let loop = VirtualLoop()
        let stamp = loop.now
        let source = TickingSource { _, _ in .fix(Fix(latitude: 1, longitude: 2, horizontalAccuracy: 5, timestamp: stamp)) }
        let engine = LocationEngine(loop: loop, sources: [source])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(distanceFilter: -1, pausesAutomatically: false)) { log.record($0) }
        loop.advance(by: 5)
        #expect(log.fixes.count == 1, "the same epoch five times is one fix")
    }

    @Test func significantChangeGoesOnAfterTheClockWentBack() {
        let loop = SteppedWallClockLoop()
        // East at 25 m/s by the loop's timers (which the step does not move), stamped by its wall clock.
        let start = loop.base.now
        let driving = TickingSource { _, now in
            .fix(Fix(latitude: 0, longitude: loop.base.now.timeIntervalSince(start) * 25 / TestFixes.metresPerDegree,
                     horizontalAccuracy: 5, timestamp: now))
        }
        let engine = LocationEngine(loop: loop, sources: [driving])
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(mode: .significantChange)) { log.record($0) }
        loop.advance(by: 11 * 60)
        let before = log.fixes.count
        #expect(before >= 2)
        loop.stepWallClock(by: -3600)
        loop.advance(by: 11 * 60)
        #expect(log.fixes.count >= before + 1, "an update within the next 11 minutes, not after the hour")
    }

    @Test func aVisitUnderWayIsReportedAfterTheClockWentBack() {
        var detector = VisitDetector()
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let still = { (time: Date) in Fix(latitude: 48.85, longitude: 2.35, horizontalAccuracy: 10, timestamp: time) }
        #expect(detector.observe(still(start)).isEmpty)
        #expect(detector.observe(still(start + 120)).isEmpty)
        // The clock goes back an hour. The step itself counts as no time: two minutes before it and
        // four after make the five minutes of dwell.
        let stepped = start + 240 - 3600
        #expect(detector.observe(still(stepped)).isEmpty)
        #expect(detector.observe(still(stepped + 120)).isEmpty)
        let arrival = detector.observe(still(stepped + 240))
        #expect(arrival.count == 1, "the dwell counted across the step")
        #expect(arrival.first?.departure == nil)
        #expect(detector.observe(still(stepped + 210)).isEmpty, "a fix older than the last by less than the tolerance is a repeat")
    }
}
