import Foundation
import LocationCore
import LocationProtocol
import LocationSources
import Testing
@testable import LocationEngine

/// Beacon ranging in the engine: scanning on demand only, constraints, unavailability, energy.
@Suite struct LocationEngineBeaconTests {
    static let uuidA = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let uuidB = UUID(uuidString: "41424344-4546-4748-4940-414243444546")!

    /// A scanner hearing each of `identities` every tick at −65 dBm (measured power −59).
    static func hearing(_ identities: [BeaconIdentity]) -> (Int, Date) -> SourceEvent? {
        { tick, now in .beacon(BeaconSighting(identity: identities[tick % identities.count], measuredPower: -59,
                                              rssi: -65, timestamp: now)) }
    }

    /// Collects beacon events (handlers run inside the virtual loop).
    final class BeaconLog: @unchecked Sendable {
        private(set) var events: [BeaconScanEvent] = []
        func record(_ event: BeaconScanEvent) { events.append(event) }
        var ranged: [[RangedBeacon]] {
            events.compactMap { if case .ranged(let beacons) = $0 { beacons } else { nil } }
        }
        var unavailable: [String] {
            events.compactMap { if case .unavailable(let reason) = $0 { reason } else { nil } }
        }
    }

    @Test func beaconSourceScansOnlyWhileSomeoneRanges() {
        let loop = VirtualLoop()
        let identity = BeaconIdentity(uuid: Self.uuidA, major: 1, minor: 2)
        let scanner = TickingSource(name: "scanner", power: 10, interval: 0.25, measures: .beacons, script: Self.hearing([identity]))
        let gps = TickingSource(name: "gps", script: TestFixes.movingEast(speed: 1))
        let engine = LocationEngine(loop: loop, sources: [gps, scanner])
        #expect(engine.hasBeaconSources && engine.hasSources && !engine.hasHeadingSources)
        #expect(!LocationEngine(loop: loop, sources: [gps]).hasBeaconSources)

        let locations = engine.subscribe(UpdateRequest(pausesAutomatically: false)) { _ in }
        loop.advance(by: 5)
        #expect(gps.running && !scanner.running, "location demand does not scan")

        let log = BeaconLog()
        let ranging = engine.subscribeBeacons([BeaconConstraint(uuid: Self.uuidA)]) { log.record($0) }
        loop.advance(by: 10.5)
        #expect(scanner.running && gps.running, "scanning runs alongside the location source")
        #expect(log.ranged.count == 10, "one ranging a second")
        #expect(log.unavailable.isEmpty)
        let last = log.ranged.last?.first
        #expect(last?.identity == identity)
        #expect(last?.rssi == -65)
        #expect(abs((last?.accuracy ?? 0) - 2) < 0.01, "−6 dB below the 1 m power is 2 m with exponent 2")
        #expect(last?.proximity == .near)

        locations.cancel()
        loop.advance(by: 5)
        #expect(!gps.running && scanner.running, "ranging alone does not run the location source")
        ranging.cancel()
        let count = log.events.count
        loop.advance(by: 5)
        #expect(!scanner.running && scanner.starts == 1)
        #expect(log.events.count == count, "nothing after cancel")
    }

    @Test func eachSubscriberGetsTheBeaconsItsConstraintsMatchSorted() {
        let loop = VirtualLoop()
        let a2 = BeaconIdentity(uuid: Self.uuidA, major: 1, minor: 2)
        let a1 = BeaconIdentity(uuid: Self.uuidA, major: 1, minor: 1)
        let a7 = BeaconIdentity(uuid: Self.uuidA, major: 7, minor: 1)
        let b = BeaconIdentity(uuid: Self.uuidB, major: 1, minor: 1)
        let scanner = TickingSource(name: "scanner", interval: 0.1, measures: .beacons, script: Self.hearing([a2, b, a7, a1]))
        let engine = LocationEngine(loop: loop, sources: [scanner])
        let all = BeaconLog(), major1 = BeaconLog(), onlyB = BeaconLog()
        _ = engine.subscribeBeacons([BeaconConstraint(uuid: Self.uuidA), BeaconConstraint(uuid: Self.uuidB)]) { all.record($0) }
        _ = engine.subscribeBeacons([BeaconConstraint(uuid: Self.uuidA, major: 1)]) { major1.record($0) }
        let changing = engine.subscribeBeacons([BeaconConstraint(uuid: Self.uuidB, major: 1, minor: 1)]) { onlyB.record($0) }
        loop.advance(by: 3)
        #expect(all.ranged.last?.map(\.identity) == [b, a1, a2, a7].sorted())
        #expect(major1.ranged.last?.map(\.identity) == [a1, a2])
        #expect(onlyB.ranged.last?.map(\.identity) == [b])
        changing.update([BeaconConstraint(uuid: Self.uuidA, major: 7, minor: 1)])
        loop.advance(by: 1)
        #expect(onlyB.ranged.last?.map(\.identity) == [a7])
    }

    @Test func scanningUnavailableIsReportedOnceAndRangingResumes() {
        let loop = VirtualLoop()
        let identity = BeaconIdentity(uuid: Self.uuidA, major: 1, minor: 1)
        let scanner = TickingSource(name: "scanner", measures: .beacons) { tick, now in
            (5..<10).contains(tick) ? .noFix(reason: "adapter powered off")
                : .beacon(BeaconSighting(identity: identity, measuredPower: -59, rssi: -59, timestamp: now))
        }
        let engine = LocationEngine(loop: loop, sources: [scanner])
        let log = BeaconLog()
        _ = engine.subscribeBeacons([BeaconConstraint(uuid: Self.uuidA)]) { log.record($0) }
        loop.advance(by: 20.5)
        #expect(log.unavailable == ["adapter powered off"])
        let index = log.events.firstIndex { if case .unavailable = $0 { true } else { false } } ?? 0
        #expect(log.events[..<index].count >= 4, "ranged before")
        #expect(log.events[(index + 1)...].allSatisfy { if case .ranged = $0 { true } else { false } })
        #expect(log.events[(index + 1)...].count >= 8, "ranged after it recovered")
        // What was heard before the adapter went off is forgotten, then found again.
        #expect(log.ranged.last?.first?.identity == identity)
    }

    @Test func withoutABeaconSourceRangingIsUnavailableAtOnce() {
        let loop = VirtualLoop()
        let gps = TickingSource(name: "gps", script: TestFixes.movingEast(speed: 1))
        let engine = LocationEngine(loop: loop, sources: [gps])
        let log = BeaconLog()
        _ = engine.subscribeBeacons([BeaconConstraint(uuid: Self.uuidA)]) { log.record($0) }
        loop.advance(by: 5)
        #expect(log.events == [.unavailable(reason: "no beacon source available")])
        #expect(!gps.running)
    }

    @Test func aFinishedBeaconSourceMakesRangingUnavailable() {
        let loop = VirtualLoop()
        let identity = BeaconIdentity(uuid: Self.uuidA, major: 1, minor: 1)
        let scanner = TickingSource(name: "scanner", measures: .beacons) { tick, now in
            tick < 3 ? .beacon(BeaconSighting(identity: identity, measuredPower: -59, rssi: -70, timestamp: now)) : .finished
        }
        let engine = LocationEngine(loop: loop, sources: [scanner])
        let log = BeaconLog()
        _ = engine.subscribeBeacons([BeaconConstraint(uuid: Self.uuidA)]) { log.record($0) }
        loop.advance(by: 10)
        #expect(log.unavailable == ["no beacon source available"])
        #expect(!scanner.running)
    }

    /// The scanner's energy is booked to the beacon-ranging service and the subscribers' accounts.
    @Test func aScannerIsMetered() {
        let loop = VirtualLoop()
        let scanner = TickingSource(name: "scanner", power: 10, measures: .beacons,
                                    script: Self.hearing([BeaconIdentity(uuid: Self.uuidA, major: 1, minor: 1)]))
        let engine = LocationEngine(loop: loop, sources: [scanner])
        let a = engine.subscribeBeacons([BeaconConstraint(uuid: Self.uuidA)], account: "com.example.a") { _ in }
        let b = engine.subscribeBeacons([BeaconConstraint(uuid: Self.uuidA)], account: "com.example.b") { _ in }
        loop.advance(by: 100)
        b.cancel()
        loop.advance(by: 100)
        a.cancel()
        loop.advance(by: 100)
        engine.publishStatus()
        loop.run()
        let energy = engine.status.energy
        #expect(abs(energy.joules - 10e-3 * 200) < 1e-9)
        #expect(abs((energy.byService["beacon-ranging"] ?? 0) - 10e-3 * 200) < 1e-9)
        #expect(abs((energy.byAccount["com.example.a"] ?? 0) - 10e-3 * 150) < 1e-9)
        #expect(abs((energy.byAccount["com.example.b"] ?? 0) - 10e-3 * 50) < 1e-9)
    }
}
