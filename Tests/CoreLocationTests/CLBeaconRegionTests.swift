import CoreLocation
import Testing

@Suite struct CLBeaconRegionTests {
    let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    @Test func initializersAndIdentity() {
        let any = CLBeaconRegion(uuid: uuid, identifier: "any")
        #expect(any.uuid == uuid && any.major == nil && any.minor == nil)
        #expect(any.identifier == "any")
        #expect(any.beaconIdentityConstraint == CLBeaconIdentityConstraint(uuid: uuid))

        let major = CLBeaconRegion(uuid: uuid, major: 7, identifier: "major")
        #expect(major.major == NSNumber(value: 7) && major.minor == nil)
        #expect(major.major?.uint16Value == 7)

        let exact = CLBeaconRegion(uuid: uuid, major: 7, minor: 65535, identifier: "exact")
        #expect(exact.major?.intValue == 7 && exact.minor?.intValue == 65535)
        #expect(exact.beaconIdentityConstraint == CLBeaconIdentityConstraint(uuid: uuid, major: 7, minor: 65535))

        let constraint = CLBeaconIdentityConstraint(uuid: uuid, major: 1, minor: 2)
        let fromConstraint = CLBeaconRegion(beaconIdentityConstraint: constraint, identifier: "c")
        #expect(fromConstraint.beaconIdentityConstraint == constraint)
        #expect(fromConstraint.major?.intValue == 1 && fromConstraint.minor?.intValue == 2)
    }

    // Apple's defaults: notifyEntryStateOnDisplay false, notifyOnEntry and notifyOnExit true.
    @Test func notifyEntryStateOnDisplayDefaultsToFalse() {
        let region = CLBeaconRegion(uuid: uuid, identifier: "r")
        #expect(!region.notifyEntryStateOnDisplay)
        #expect(region.notifyOnEntry && region.notifyOnExit)
        region.notifyEntryStateOnDisplay = true
        #expect(region.notifyEntryStateOnDisplay)
    }

    @Test func deprecatedSpellings() {
        struct Old: DeprecatedAPICall {
            let uuid: UUID
            @available(*, deprecated)
            func call() -> [CLBeaconRegion] {
                [
                    CLBeaconRegion(proximityUUID: uuid, identifier: "p0"),
                    CLBeaconRegion(proximityUUID: uuid, major: 1, identifier: "p1"),
                    CLBeaconRegion(proximityUUID: uuid, major: 1, minor: 2, identifier: "p2"),
                    CLBeaconRegion(UUID: uuid, identifier: "u0"),
                    CLBeaconRegion(UUID: uuid, major: 1, identifier: "u1"),
                    CLBeaconRegion(UUID: uuid, major: 1, minor: 2, identifier: "u2"),
                ]
            }
        }
        struct ProximityUUID: DeprecatedAPICall {
            let region: CLBeaconRegion
            @available(*, deprecated)
            func call() -> UUID { region.proximityUUID }
        }
        let regions = callDeprecated(Old(uuid: uuid))
        #expect(regions.map(\.identifier) == ["p0", "p1", "p2", "u0", "u1", "u2"])
        #expect(regions.allSatisfy { $0.uuid == uuid })
        #expect(regions.map { $0.major?.intValue } == [nil, 1, 1, nil, 1, 1])
        #expect(regions.map { $0.minor?.intValue } == [nil, nil, 2, nil, nil, 2])
        #expect(callDeprecated(ProximityUUID(region: regions[0])) == uuid)
    }

    @Test func peripheralDataIsTheIBeaconPayload() throws {
        let region = CLBeaconRegion(uuid: uuid, major: 0x0102, minor: 0xA0B0, identifier: "adv")
        let dictionary = region.peripheralData(withMeasuredPower: NSNumber(value: -65))
        #expect(dictionary.count == 1)
        let data = try #require(dictionary["kCBAdvDataAppleBeaconKey"] as? Data)
        let bytes = [UInt8](data)
        #expect(bytes.count == 21)
        let uuidBytes = withUnsafeBytes(of: uuid.uuid) { [UInt8]($0) }
        #expect(Array(bytes[0..<16]) == uuidBytes)
        #expect(Array(bytes[16..<20]) == [0x01, 0x02, 0xA0, 0xB0])
        #expect(Int8(bitPattern: bytes[20]) == -65)
    }

    @Test func peripheralDataDefaults() throws {
        let region = CLBeaconRegion(uuid: uuid, identifier: "adv")
        let data = try #require(region.peripheralData(withMeasuredPower: nil)["kCBAdvDataAppleBeaconKey"] as? Data)
        let bytes = [UInt8](data)
        #expect(Array(bytes[16..<20]) == [0, 0, 0, 0])
        #expect(Int8(bitPattern: bytes[20]) == -59)
    }

    @Test func descriptionUsesApplesFormat() {
        let region = CLBeaconRegion(uuid: uuid, major: 1, identifier: "lobby")
        #expect(region.description
            == "CLBeaconRegion (identifier:'lobby', uuid:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major:1, minor:(null))")
    }

    @Test func equalityIsByIdentifier() {
        let a = CLBeaconRegion(uuid: uuid, major: 1, identifier: "same")
        let b = CLBeaconRegion(uuid: UUID(), identifier: "same")
        #expect(a == b)
        #expect(a != CLBeaconRegion(uuid: uuid, major: 1, identifier: "other"))
    }

    @Test func copyAndSecureCoding() throws {
        let region = CLBeaconRegion(uuid: uuid, major: 9, minor: 8, identifier: "r")
        region.notifyEntryStateOnDisplay = true
        region.notifyOnExit = false

        let copy = try #require(region.copy() as? CLBeaconRegion)
        #expect(copy !== region)
        #expect(copy.beaconIdentityConstraint == region.beaconIdentityConstraint)
        #expect(copy.notifyEntryStateOnDisplay && !copy.notifyOnExit && copy.notifyOnEntry)

        let decoded = try #require(try archiveRoundTrip(region as CLRegion, as: CLRegion.self) as? CLBeaconRegion)
        #expect(decoded.identifier == "r")
        #expect(decoded.beaconIdentityConstraint == region.beaconIdentityConstraint)
        #expect(decoded.notifyEntryStateOnDisplay && !decoded.notifyOnExit && decoded.notifyOnEntry)
    }
}
