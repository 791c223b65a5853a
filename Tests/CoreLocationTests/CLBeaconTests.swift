import CoreLocation
import Testing

@Suite struct CLBeaconTests {
    let uuid = UUID(uuidString: "FDA50693-A4E2-4FB1-AFCF-C6EB07647825")!
    let date = Date(timeIntervalSince1970: 1_595_570_324)  // 2020-07-24 05:58:44 UTC

    func beacon() -> CLBeacon {
        CLBeacon(uuid: uuid, major: 1, minor: 2, proximity: .far, accuracy: 21.54, rssi: -64, timestamp: date)
    }

    @Test func values() {
        let b = beacon()
        #expect(b.uuid == uuid)
        #expect(b.major == NSNumber(value: 1) && b.minor == NSNumber(value: 2))
        #expect(b.proximity == .far)
        #expect(b.accuracy == 21.54)
        #expect(b.rssi == -64)
        #expect(b.timestamp == date)
    }

    @Test func deprecatedProximityUUID() {
        struct Call: DeprecatedAPICall {
            let beacon: CLBeacon
            @available(*, deprecated)
            func call() -> UUID { beacon.proximityUUID }
        }
        #expect(callDeprecated(Call(beacon: beacon())) == uuid)
    }

    @Test func descriptionUsesApplesFormat() {
        #expect(beacon().description
            == "CLBeacon (uuid:FDA50693-A4E2-4FB1-AFCF-C6EB07647825, major:1, minor:2, proximity:3 +/- 21.54m, rssi:-64, timestamp:2020-07-24 05:58:44 +0000)")
    }

    @Test func defaultInitializerIsUndetermined() {
        let b = CLBeacon()
        #expect(b.proximity == .unknown)
        #expect(b.accuracy < 0)
    }

    @Test func satisfiesConstraintByIdentity() {
        let b = beacon()
        let constraint = CLBeaconIdentityConstraint(uuid: uuid, major: 1)
        #expect(constraint.matches(uuid: b.uuid, major: b.major.uint16Value, minor: b.minor.uint16Value))
    }

    @Test func secureCodingRoundTrip() throws {
        let b = beacon()
        let decoded = try #require(try archiveRoundTrip(b))
        #expect(decoded.uuid == uuid && decoded.major == b.major && decoded.minor == b.minor)
        #expect(decoded.proximity == .far && decoded.accuracy == 21.54 && decoded.rssi == -64)
        #expect(decoded.timestamp == date)
        #expect(b.copy() as AnyObject === b)
    }

    @Test func mockBySubclassing() {
        final class Near: CLBeacon {
            override var proximity: CLProximity { .near }
        }
        #expect(Near().proximity == .near)
    }
}
