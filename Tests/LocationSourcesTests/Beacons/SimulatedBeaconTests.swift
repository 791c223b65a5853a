import Foundation
import LocationCore
import LocationGeodesy
import LocationProtocol
import Testing
@testable import LocationSources

/// `beacon:` specs, the simulated signal and the scanner that hears it.
@Suite struct SimulatedBeaconTests {
    static let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    @Test func beaconSpecs() throws {
        let beacon = SimulatedBeacon(identity: BeaconIdentity(uuid: Self.uuid, major: 1, minor: 65535), measuredPower: -59,
                                     latitude: 48.85, longitude: 2.35)
        #expect(try SourceSpec("beacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0, 1, 65535, -59@48.85, 2.35") == .beacon(beacon))
        #expect(try SourceSpec("BEACON:\(Self.uuid.uuidString),1,65535,-59@48.85,2.35").description
                    == "beacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0,1,65535,-59@48.85,2.35")
        #expect(try SourceSpec(SourceSpec.beacon(beacon).description) == .beacon(beacon))
        #expect(try SourceSpec("beacon:\(Self.uuid.uuidString),1,1,-59@1,2").speed == nil)
        let bad = [
            "beacon:", "beacon:\(Self.uuid.uuidString),1,1,-59", "beacon:\(Self.uuid.uuidString),1,1@1,2",
            "beacon:not-a-uuid,1,1,-59@1,2", "beacon:\(Self.uuid.uuidString),65536,1,-59@1,2",
            "beacon:\(Self.uuid.uuidString),1,-1,-59@1,2", "beacon:\(Self.uuid.uuidString),1,1,-129@1,2",
            "beacon:\(Self.uuid.uuidString),1,1,-59@91,2", "beacon:\(Self.uuid.uuidString),1,1,-59@1,x",
            "beacon:\(Self.uuid.uuidString),1,1,-59@1,2@3", "beacon:\(Self.uuid.uuidString),1,1,-59@1,2?speed=2",
        ]
        for spec in bad {
            #expect(throws: SourceSpecError.self, "\(spec)") { try SourceSpec(spec) }
        }
        #expect(SourceSpecError.malformedUUID("x").description.contains("not a UUID"))
    }

    @Test func beaconsNeedASimulatedPosition() throws {
        let beacon = try SourceSpec("beacon:\(Self.uuid.uuidString),1,1,-59@48.85,2.35")
        #expect(throws: SourceSpecError.beaconWithoutPosition) { try beacon.makeSource() }
        #expect(throws: SourceSpecError.beaconWithoutPosition) { try SourceSpec.makeSources([beacon, .compass(magneticHeading: 0)]) }
        var skipped: [SourceSpec] = []
        let none = try SourceSpec.makeSources([beacon]) { spec, _ in skipped.append(spec) }
        #expect(none.isEmpty && skipped == [beacon])

        let second = try SourceSpec("beacon:\(Self.uuid.uuidString),1,2,-65@48.8501,2.35")
        let sources = try SourceSpec.makeSources([beacon, .fixed(latitude: 48.85, longitude: 2.35, horizontalAccuracy: 5), second])
        #expect(sources.count == 2, "one scanner for every beacon")
        let scanner = try #require(sources.last as? SimulatedBeaconScanner)
        #expect(scanner.descriptor.measures == .beacons && scanner.descriptor.powerCost == 0)
        #expect(scanner.beacons.map(\.identity.minor) == [1, 2])
        #expect(scanner.descriptor.name == "\(beacon);\(second)")
    }

    /// About one advertisement a second from a beacon in range, strengths spread σ ≈ 4 dB round the
    /// model, none beyond range; the same every run.
    @Test func theScannerHearsWhatTheSignalModelSays() throws {
        let near = SimulatedBeacon(identity: BeaconIdentity(uuid: Self.uuid, major: 1, minor: 1), measuredPower: -59,
                                   latitude: 0, longitude: 5 / 111_319.49)
        let distant = SimulatedBeacon(identity: BeaconIdentity(uuid: Self.uuid, major: 1, minor: 2), measuredPower: -59,
                                      latitude: 0, longitude: 100 / 111_319.49)
        func run() -> [BeaconSighting] {
            let loop = VirtualLoop()
            let scanner = SimulatedBeaconScanner(beacons: [near, distant], device: { _ in (0, 0) }, name: "test")
            let heard = Locked<[BeaconSighting]>([])
            scanner.start(on: loop) { event in
                if case .beacon(let sighting) = event { heard.withLock { $0.append(sighting) } }
            }
            loop.advance(by: 999.5)
            scanner.stop()
            loop.advance(by: 10)
            return heard.withLock { $0 }
        }
        let sightings = run()
        #expect(sightings == run(), "seeded")
        #expect(sightings.allSatisfy { $0.identity.minor == 1 }, "nothing from 100 m")
        // 1,000 scans, 10% lost and 2% of seconds starting a 3 s gap: about 850 heard.
        #expect((780...920).contains(sightings.count))
        let values = sightings.map { Double($0.rssi) }
        let mean = values.reduce(0, +) / Double(values.count)
        let deviation = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
        let expected = SimulatedBeaconSignal.meanRSSI(measuredPower: -59, distance: 5)
        #expect(abs(mean - expected) < 0.5, "mean \(mean), model \(expected)")
        #expect(abs(deviation - 4) < 0.4, "σ \(deviation)")
    }

    /// The scanner hears from where the simulated route's traveller is, on the fixes' clock.
    @Test func theScannerFollowsTheRoute() throws {
        let route = SimulatedRouteSource(route: .walk)
        let position = try #require(SimulatedBeaconScanner.devicePosition(of: route))
        let start = Date(timeIntervalSinceReferenceDate: 0)
        let first = position(start)
        let track = BuiltInRoute.walk.track
        #expect(abs(first.latitude - track.points[0].latitude) < 1e-9 && abs(first.longitude - track.points[0].longitude) < 1e-9)
        let later = position(start.addingTimeInterval(60))
        let expected = track.position(at: 60)
        #expect(abs(later.latitude - expected.latitude) < 1e-9 && abs(later.longitude - expected.longitude) < 1e-9)
        #expect(SimulatedBeaconScanner.devicePosition(of: CompassSource(magneticHeading: 0)) == nil)
    }
}
