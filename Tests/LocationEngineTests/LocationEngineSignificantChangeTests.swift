import Foundation
import LocationCore
import LocationGeodesy
import LocationProtocol
import LocationSources
import Testing
@testable import LocationEngine

/// Significant change: a first fix, then one per 500 m at most every five minutes, with the source
/// running only in short wakes.
@Suite struct LocationEngineSignificantChangeTests {
    static let significant = UpdateRequest(mode: .significantChange)

    /// East along the equator at `speed` m/s by the loop's clock, so the device moves on while the
    /// source rests.
    static func driving(speed: Double, accuracy: Double = 5, name: String = "gps", power: Double = 500, from loop: VirtualLoop) -> TickingSource {
        let start = loop.now
        return TickingSource(name: name, accuracy: accuracy, power: power) { _, now in
            .fix(Fix(latitude: 0, longitude: now.timeIntervalSince(start) * speed / TestFixes.metresPerDegree,
                     horizontalAccuracy: accuracy, timestamp: now))
        }
    }

    private func distance(_ a: Fix, _ b: Fix) -> Double {
        Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
    }

    @Test func anHourOfDrivingGivesAFirstFixThenOnePerWakeAtAFractionOfTheStandardServicesSourceTime() {
        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: [Self.driving(speed: 25, from: loop)])
        let log = EventLog()
        _ = engine.subscribe(Self.significant) { log.record($0) }
        loop.advance(by: 3600)
        let fixes = log.fixes
        // One at the start and one per five-minute wake: 12 more in the hour.
        #expect(fixes.count == 13)
        for (a, b) in zip(fixes, fixes.dropFirst()) {
            #expect(distance(a, b) >= 500)
            #expect(b.timestamp.timeIntervalSince(a.timestamp) >= 300)
        }
        let onTime = engine.status.energy.runningTime["gps", default: 0]
        #expect(onTime <= 0.05 * 3600, "the receiver ran \(onTime) s of 3600")
        #expect(engine.status.activeSource == nil, "resting between wakes")
    }

    @Test func aStillDeviceGetsItsFirstFixOnly() {
        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: [Self.driving(speed: 0, from: loop)])
        let log = EventLog()
        _ = engine.subscribe(Self.significant) { log.record($0) }
        loop.advance(by: 3600)
        #expect(log.fixes.count == 1)
    }

    @Test func fixesOtherDemandBringsAreTakenWithoutWaking() {
        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: [Self.driving(speed: 25, from: loop)])
        let log = EventLog(), standard = EventLog()
        _ = engine.subscribe(UpdateRequest(pausesAutomatically: false)) { standard.record($0) }
        _ = engine.subscribe(Self.significant) { log.record($0) }
        loop.advance(by: 1000)
        // Every fix is seen: an update as soon as five minutes and 500 m have passed.
        let times = log.fixes.map { $0.timestamp.timeIntervalSince(log.fixes[0].timestamp) }
        #expect(times == [0, 300, 600, 900])
    }

    @Test func aSourceTooCoarseToTell500MetresGivesNothingAndRestsAfterItsWake() {
        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: [Self.driving(speed: 25, accuracy: 2_000, name: "cell", from: loop)])
        let log = EventLog()
        _ = engine.subscribe(Self.significant) { log.record($0) }
        loop.advance(by: 30)
        #expect(engine.status.activeSource == "cell")
        loop.advance(by: 40)
        #expect(engine.status.activeSource == nil)
        #expect(log.fixes.isEmpty)
        loop.advance(by: 600)
        // Two more wakes of a minute each: 3 minutes on in 11.
        #expect(engine.status.energy.runningTime["cell", default: 0] <= 181)
    }

    @Test func theCheapestSourceThatCanTell500MetresRuns() {
        let loop = VirtualLoop()
        let gps = Self.driving(speed: 25, accuracy: 5, name: "gps", power: 500, from: loop)
        let wifi = Self.driving(speed: 25, accuracy: 100, name: "wifi", power: 40, from: loop)
        let engine = LocationEngine(loop: loop, sources: [gps, wifi])
        let log = EventLog()
        _ = engine.subscribe(Self.significant) { log.record($0) }
        loop.advance(by: 900)
        #expect(log.fixes.count == 4)
        #expect(engine.status.energy.runningTime["gps", default: 0] == 0)
        #expect(gps.starts == 0 && wifi.starts == 4)
    }

    @Test func cancellingStopsTheWakes() {
        let loop = VirtualLoop()
        let source = Self.driving(speed: 25, from: loop)
        let engine = LocationEngine(loop: loop, sources: [source])
        let log = EventLog()
        let subscription = engine.subscribe(Self.significant) { log.record($0) }
        loop.advance(by: 10)
        subscription.cancel()
        loop.advance(by: 3600)
        #expect(log.fixes.count == 1)
        #expect(source.starts == 1)
    }
}
