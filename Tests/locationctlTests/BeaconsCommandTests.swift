import Foundation
import Testing

/// `locationctl beacons --decode`: the forms of input it takes, its output and its refusals.
@Suite struct BeaconsCommandTests {
    /// citruz/beacontools' test_ibeacon advertisement (see IBeaconAdvertisementTests for the origin).
    static let advertisingData = "02 01 06 1a ff 4c 00 02 15 41 42 43 44 45 46 47 48 49 40 41 42 43 44 45 46 00 01 00 02 f8"

    @Test(arguments: [
        advertisingData,
        String(advertisingData.filter { $0 != " " }),
        "1A:FF:4C:00:02:15:41:42:43:44:45:46:47:48:49:40:41:42:43:44:45:46:00:01:00:02:F8",
        "4c000215414243444546474849404142434445460001 0002f8",
        "0x0215414243444546474849404142434445460001 0002f8",
    ])
    func decodesEveryForm(hex: String) throws {
        let output = try run(Executable.locationctl, ["beacons", "--decode", hex])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines == [
            "UUID            41424344-4546-4748-4940-414243444546",
            "major           1",
            "minor           2",
            "measured power  -8 dBm",
        ], "\(output.stdout)")
    }

    @Test func json() throws {
        let output = try run(Executable.locationctl, ["beacons", "--decode", Self.advertisingData, "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["uuid"] as? String == "41424344-4546-4748-4940-414243444546")
        #expect(object["major"] as? Int == 1 && object["minor"] as? Int == 2 && object["measuredPower"] as? Int == -8)
    }

    @Test(arguments: [
        // An AltBeacon (company 0x0118), an Eddystone UID, a truncated iBeacon, not hexadecimal, odd digits.
        "02011a1aff180112342f234454cf6d4a0fadf2f4911ba9ffa600010002c5",
        "0201060303aafe1716aafe00e3123456789012346789010000000000010000",
        "02 01 06 1a ff 4c 00 02 15 41 42 43",
        "hello", "0215a", "",
    ])
    func anythingElseIsAnError(hex: String) throws {
        let output = try run(Executable.locationctl, ["beacons", "--decode", hex])
        #expect(output.exitedNormally)
        #expect(output.status != 0)
        #expect(output.stdout.isEmpty)
        #expect(!output.stderr.isEmpty)
    }
}
