import Foundation
import LocationProtocol
import NIOCore
import Testing
@testable import LocationWire

/// Beacon ranging on the wire (protocol 6): `startRanging` with its constraint, `stopRanging`, the
/// `beacons` event with named fields per beacon, and the `rangingUnavailable` failure; values the
/// API could not represent are refused.
@Suite struct BeaconWireTests {
    static let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    static func beacon(minor: UInt16, proximity: BeaconProximity = .near, accuracy: Double = 1.75) -> RangedBeacon {
        RangedBeacon(identity: BeaconIdentity(uuid: uuid, major: 7, minor: minor), proximity: proximity,
                     accuracy: accuracy, rssi: -68, timestamp: Date(timeIntervalSinceReferenceDate: 800_000_000.5))
    }

    static func clientRoundTrip(_ message: ClientMessage) throws -> ClientMessage {
        var buffer = ByteBuffer()
        try WireCodec.encode(message, into: &buffer)
        let frame = try #require(try WireFrameDecoder.nextFrame(from: &buffer))
        return try WireCodec.decodeClientMessage(frame)
    }

    @Test func theProtocolVersionSaysRanging() {
        #expect(WireProtocol.version == 6)
    }

    @Test(arguments: [
        BeaconConstraint(uuid: uuid),
        BeaconConstraint(uuid: uuid, major: 7),
        BeaconConstraint(uuid: uuid, major: 65535, minor: 0),
        // The wire carries any combination, as the shared value does.
        BeaconConstraint(uuid: uuid, major: nil, minor: 3),
    ])
    func startAndStopRangingRoundTrip(_ constraint: BeaconConstraint) throws {
        #expect(try Self.clientRoundTrip(.request(.startRanging(4, constraint))) == .request(.startRanging(4, constraint)))
        #expect(try Self.clientRoundTrip(.request(.stopRanging(4))) == .request(.stopRanging(4)))
    }

    @Test func startRangingHasNamedFields() throws {
        let object = try TemporaryFullAccuracyWireTests.json(
            ClientMessage.request(.startRanging(4, BeaconConstraint(uuid: Self.uuid, major: 7))))
        #expect(object["type"] as? String == "startRanging")
        #expect(object["stream"] as? Int == 4)
        let constraint = try #require(object["beaconConstraint"] as? [String: Any])
        #expect(Set(constraint.keys) == ["uuid", "major"], "an absent major or minor is left out")
        #expect(constraint["uuid"] as? String == Self.uuid.uuidString)
    }

    @Test func rangedBeaconsRoundTripIncludingAnEmptyScan() throws {
        let scan = [Self.beacon(minor: 1), Self.beacon(minor: 2, proximity: .unknown, accuracy: -1)]
        #expect(try WireCodecTests.roundTrip(.event(.stream(4, .beacons(scan)))) == .event(.stream(4, .beacons(scan))))
        #expect(try WireCodecTests.roundTrip(.event(.stream(4, .beacons([])))) == .event(.stream(4, .beacons([]))))
        let object = try TemporaryFullAccuracyWireTests.json(DaemonMessage.event(.stream(4, .beacons(scan))))
        #expect(object["type"] as? String == "beacons")
        let first = try #require((object["beacons"] as? [[String: Any]])?.first)
        #expect(Set(first.keys) == ["uuid", "major", "minor", "proximity", "accuracy", "rssi", "timestamp"])
    }

    @Test func rangingUnavailableIsAFailureOfItsStream() throws {
        let message = DaemonMessage.event(.stream(4, .failed(.rangingUnavailable)))
        #expect(try WireCodecTests.roundTrip(message) == message)
        #expect(try TemporaryFullAccuracyWireTests.json(message)["failure"] as? String == "rangingUnavailable")
    }

    @Test func aDistanceThatIsNotANumberIsSentAsUnknown() throws {
        let message = DaemonMessage.event(.stream(4, .beacons([Self.beacon(minor: 1, accuracy: .nan)])))
        #expect(try WireCodecTests.roundTrip(message) == .event(.stream(4, .beacons([Self.beacon(minor: 1, accuracy: -1)]))))
    }

    @Test(arguments: [
        #"{"type":"startRanging","stream":1}"#,
        #"{"type":"startRanging","beaconConstraint":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"}}"#,
        #"{"type":"startRanging","stream":1,"beaconConstraint":{"uuid":"not-a-uuid"}}"#,
        #"{"type":"startRanging","stream":1,"beaconConstraint":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":65536}}"#,
        #"{"type":"startRanging","stream":1,"beaconConstraint":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","minor":-1}}"#,
        #"{"type":"stopRanging"}"#,
    ])
    func badRangingRequestsAreRefused(_ json: String) {
        #expect(throws: (any Error).self) { try WireCodec.decodeClientMessage(WireCodecTests.clientFrame(json)) }
    }

    @Test(arguments: [
        #"{"type":"beacons","stream":1}"#,
        #"{"type":"beacons","beacons":[]}"#,
        #"{"type":"beacons","stream":1,"beacons":[{"uuid":"x","major":1,"minor":1,"proximity":1,"accuracy":1,"rssi":-60,"timestamp":0}]}"#,
        #"{"type":"beacons","stream":1,"beacons":[{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":1,"proximity":4,"accuracy":1,"rssi":-60,"timestamp":0}]}"#,
        #"{"type":"beacons","stream":1,"beacons":[{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":1,"proximity":1,"rssi":-60,"timestamp":0}]}"#,
        #"{"type":"failed","stream":1,"failure":"rangingFailure"}"#,
    ])
    func badBeaconEventsAreRefused(_ json: String) {
        #expect(throws: (any Error).self) { try WireCodec.decodeDaemonMessage(WireCodecTests.clientFrame(json)) }
    }
}
