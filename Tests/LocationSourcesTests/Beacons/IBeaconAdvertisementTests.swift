import Foundation
import LocationProtocol
import Testing
@testable import LocationSources

/// The iBeacon decoder, on advertisements published by open-source beacon projects (each sample's
/// origin is named beside it) and on what must not decode.
@Suite struct IBeaconAdvertisementTests {
    /// Bytes from hex, ignoring spaces.
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    static func identity(_ uuid: String, _ major: UInt16, _ minor: UInt16) -> BeaconIdentity {
        BeaconIdentity(uuid: UUID(uuidString: uuid)!, major: major, minor: minor)
    }

    /// Published advertisements with what their projects' tests or documentation decode them to.
    static let published: [(source: String, advertisingData: String, identity: BeaconIdentity, power: Int)] = [
        // citruz/beacontools, tests/test_parser.py, test_ibeacon.
        ("beacontools test_ibeacon",
         "02 01 06 1a ff 4c 00 02 15 41 42 43 44 45 46 47 48 49 40 41 42 43 44 45 46 00 01 00 02 f8",
         identity("41424344-4546-4748-4940-414243444546", 1, 2), -8),
        // citruz/beacontools, tests/test_parser.py, test_cypress_beacon (a Cypress CYALKIT-E02 sensor
        // beacon, whose minor carries temperature and humidity).
        ("beacontools test_cypress_beacon",
         "02 01 04 1a ff 4c 00 02 15 00 05 00 01 00 00 10 00 80 00 00 80 5f 9b 01 31 00 02 6c 66 c3",
         identity("00050001-0000-1000-8000-00805F9B0131", 2, 0x6C66), -61),
        // hecko/librebeacon.github.io, ibeacon_packet.md: the advertising data given to BlueZ's
        // `hcitool cmd 0x08 0x0008` (HCI LE Set Advertising Data) to make a Linux machine an iBeacon.
        ("librebeacon ibeacon_packet.md",
         "02 01 1a 1a ff 4c 00 02 15 e2 c5 6d b5 df fb 48 d2 b0 60 d0 f5 a7 10 96 e0 00 00 00 00 c5",
         identity("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", 0, 0), -59),
        // forforf/multi_beacon, ibeacon_protocol.md: major 16, minor 32, measured power −58 (C6).
        ("multi_beacon ibeacon_protocol.md",
         "02 01 1A 1A FF 4C 00 02 15 83 25 6B 74 78 D0 43 A4 82 69 05 F9 DC 8A 44 BA 00 10 00 20 C6",
         identity("83256B74-78D0-43A4-8269-05F9DC8A44BA", 16, 32), -58),
    ]

    @Test(arguments: 0..<published.count)
    func publishedAdvertisementsDecode(_ index: Int) throws {
        let sample = Self.published[index]
        let data = Self.bytes(sample.advertisingData)
        let advertisement = try #require(IBeaconAdvertisement(advertisingData: data), "\(sample.source)")
        #expect(advertisement.identity == sample.identity, "\(sample.source)")
        #expect(advertisement.measuredPower == sample.power, "\(sample.source)")
        // The manufacturer structure is the last 27 bytes (length 1A and 26); its payload after `4C 00` the last 23.
        #expect(advertisement.advertisingStructure == Array(data.suffix(27)))
        #expect(advertisement.appleManufacturerData == Array(data.suffix(23)))
        #expect(IBeaconAdvertisement(appleManufacturerData: data.suffix(23)) == advertisement)
    }

    @Test func trailingZeroPaddingEndsTheData() throws {
        // A controller's 31-byte advertising data: the significant part, then zeros.
        let data = Self.bytes(Self.published[0].advertisingData) + [0]
        #expect(IBeaconAdvertisement(advertisingData: data)?.identity.major == 1)
        // Whatever follows a zero length is not read, even an iBeacon.
        #expect(IBeaconAdvertisement(advertisingData: [0] + Self.bytes(Self.published[0].advertisingData)) == nil)
        #expect(IBeaconAdvertisement(advertisingData: [0, 0, 0]) == nil)
    }

    @Test func otherAdvertisementsDoNotDecode() {
        let notIBeacon: [(source: String, hex: String)] = [
            // AltBeacon/android-beacon-library, BeaconParserTest.testRecognizeBeacon: Radius Networks'
            // company identifier 0x0118, not Apple's, with an iBeacon-shaped body.
            ("AltBeacon testRecognizeBeacon", "02011a1aff180112342f234454cf6d4a0fadf2f4911ba9ffa600010002c5"),
            // AltBeacon/android-beacon-library, BeaconParserTest.testParsesBeaconMissingDataField: an AltBeacon.
            ("AltBeacon testParsesBeaconMissingDataField",
             "02011a1aff1801beac2f234454cf6d4a0fadf2f4911ba9ffa600010002c5000000"),
            // citruz/beacontools, tests/test_parser.py, test_eddystone_uid: an Eddystone UID frame.
            ("beacontools test_eddystone_uid",
             "0201060303aafe1716aafe00e312345678901234678901000000000001 0000"),
        ]
        for sample in notIBeacon {
            #expect(IBeaconAdvertisement(advertisingData: Self.bytes(sample.hex)) == nil, "\(sample.source)")
        }
    }

    @Test func malformedInputIsNil() {
        let good = Self.bytes(Self.published[0].advertisingData)
        let payload = Array(good.suffix(23))
        // Every truncation of the advertising data and of the payload.
        for count in 0..<good.count {
            #expect(IBeaconAdvertisement(advertisingData: good.prefix(count)) == nil, "\(count) bytes")
        }
        for count in 0..<payload.count {
            #expect(IBeaconAdvertisement(appleManufacturerData: payload.prefix(count)) == nil)
        }
        // A payload one byte too long, in the payload and in its AD structure.
        #expect(IBeaconAdvertisement(appleManufacturerData: payload + [0]) == nil)
        #expect(IBeaconAdvertisement(advertisingData: [0x1B, 0xFF, 0x4C, 0x00] + payload + [0]) == nil)
        // Another Apple type (0x10), or a length byte other than 0x15.
        var otherType = payload
        otherType[0] = 0x10
        #expect(IBeaconAdvertisement(appleManufacturerData: otherType) == nil)
        var otherLength = payload
        otherLength[1] = 0x16
        #expect(IBeaconAdvertisement(appleManufacturerData: otherLength) == nil)
        // Apple's identifier in the wrong byte order, or in a structure of another type (0x16).
        #expect(IBeaconAdvertisement(advertisingData: [0x1A, 0xFF, 0x00, 0x4C] + payload) == nil)
        #expect(IBeaconAdvertisement(advertisingData: [0x1A, 0x16, 0x4C, 0x00] + payload) == nil)
        // A structure too short to hold a company identifier, a length past the end.
        #expect(IBeaconAdvertisement(advertisingData: [0x02, 0xFF, 0x4C]) == nil)
        #expect(IBeaconAdvertisement(advertisingData: [0xFF, 0xFF, 0x4C, 0x00]) == nil)
        #expect(IBeaconAdvertisement(advertisingData: []) == nil)
    }

    @Test func anotherAppleStructureBeforeTheIBeaconIsSkipped() throws {
        let payload = Array(Self.bytes(Self.published[1].advertisingData).suffix(23))
        // Apple's "nearby" type (0x10) first, then the iBeacon.
        let data: [UInt8] = [0x02, 0x01, 0x06, 0x06, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B] + [0x1A, 0xFF, 0x4C, 0x00] + payload
        #expect(IBeaconAdvertisement(advertisingData: data)?.identity.major == 2)
    }

    @Test func encodingRoundTripsAndClampsPower() throws {
        let identity = Self.identity("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", 0xFFFF, 0x0102)
        for power in [-128, -59, 0, 127] {
            let advertisement = IBeaconAdvertisement(identity: identity, measuredPower: power)
            #expect(IBeaconAdvertisement(appleManufacturerData: advertisement.appleManufacturerData) == advertisement)
            #expect(IBeaconAdvertisement(advertisingData: advertisement.advertisingStructure) == advertisement)
        }
        #expect(IBeaconAdvertisement(identity: identity, measuredPower: -300).measuredPower == -128)
        #expect(IBeaconAdvertisement(identity: identity, measuredPower: 300).measuredPower == 127)
    }
}
