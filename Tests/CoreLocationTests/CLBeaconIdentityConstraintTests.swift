import CoreLocation
import Testing

@Suite struct CLBeaconIdentityConstraintTests {
    let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    let otherUUID = UUID(uuidString: "B9407F30-F5F8-466E-AFF9-25556B57FE6D")!

    @Test func initializers() {
        let any = CLBeaconIdentityConstraint(uuid: uuid)
        #expect(any.uuid == uuid && any.major == nil && any.minor == nil)
        let major = CLBeaconIdentityConstraint(uuid: uuid, major: 7)
        #expect(major.major == 7 && major.minor == nil)
        let exact = CLBeaconIdentityConstraint(uuid: uuid, major: 7, minor: 65535)
        #expect(exact.major == 7 && exact.minor == 65535)
    }

    // Apple's rule: the UUID must match; a nil major or minor is a wildcard.
    @Test func wildcards() {
        let any = CLBeaconIdentityConstraint(uuid: uuid)
        #expect(any.matches(uuid: uuid, major: 1, minor: 2))
        #expect(any.matches(uuid: uuid, major: 65535, minor: 0))
        #expect(!any.matches(uuid: otherUUID, major: 1, minor: 2))

        let major = CLBeaconIdentityConstraint(uuid: uuid, major: 7)
        #expect(major.matches(uuid: uuid, major: 7, minor: 0))
        #expect(major.matches(uuid: uuid, major: 7, minor: 999))
        #expect(!major.matches(uuid: uuid, major: 8, minor: 0))

        let exact = CLBeaconIdentityConstraint(uuid: uuid, major: 7, minor: 3)
        #expect(exact.matches(uuid: uuid, major: 7, minor: 3))
        #expect(!exact.matches(uuid: uuid, major: 7, minor: 4))
        #expect(!exact.matches(uuid: otherUUID, major: 7, minor: 3))
    }

    @Test func equalityByValue() {
        #expect(CLBeaconIdentityConstraint(uuid: uuid) == CLBeaconIdentityConstraint(uuid: uuid))
        #expect(CLBeaconIdentityConstraint(uuid: uuid, major: 1) == CLBeaconIdentityConstraint(uuid: uuid, major: 1))
        #expect(CLBeaconIdentityConstraint(uuid: uuid, major: 1, minor: 2).hash
            == CLBeaconIdentityConstraint(uuid: uuid, major: 1, minor: 2).hash)
        #expect(CLBeaconIdentityConstraint(uuid: uuid) != CLBeaconIdentityConstraint(uuid: otherUUID))
        #expect(CLBeaconIdentityConstraint(uuid: uuid) != CLBeaconIdentityConstraint(uuid: uuid, major: 0))
        #expect(CLBeaconIdentityConstraint(uuid: uuid, major: 0) != CLBeaconIdentityConstraint(uuid: uuid, major: 0, minor: 0))
    }

    @Test func setHoldsEachIdentityOnce() {
        let set: Set<CLBeaconIdentityConstraint> = [
            CLBeaconIdentityConstraint(uuid: uuid),
            CLBeaconIdentityConstraint(uuid: uuid),
            CLBeaconIdentityConstraint(uuid: uuid, major: 1),
            CLBeaconIdentityConstraint(uuid: uuid, major: 1),
            CLBeaconIdentityConstraint(uuid: uuid, major: 1, minor: 2),
            CLBeaconIdentityConstraint(uuid: otherUUID),
        ]
        #expect(set.count == 4)
        #expect(set.contains(CLBeaconIdentityConstraint(uuid: uuid, major: 1, minor: 2)))
        #expect(!set.contains(CLBeaconIdentityConstraint(uuid: otherUUID, major: 1)))
    }

    @Test func isSendableAndCodable() throws {
        func requireSendable<T: Sendable>(_ value: T) -> Bool { true }
        let constraint = CLBeaconIdentityConstraint(uuid: uuid, major: 3)
        #expect(requireSendable(constraint))
        let decoded = try #require(try archiveRoundTrip(constraint))
        #expect(decoded == constraint)
        #expect(decoded.minor == nil)
        #expect(constraint.copy() as AnyObject === constraint)
    }
}
