import Foundation
import TestSupport
import Testing

/// `locationctl beacons`' live mode: a scan a second as JSON lines, only the constraint's beacons,
/// and clear errors.
@Suite struct BeaconsLiveCommandTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    /// A device at a fixed point, beacons 7.1 (2 m away), 7.2 and 8.1.
    static let source = "fixed:52.52,13.405;beacon:\(uuid),7,1,-59@52.520018,13.405"
        + ";beacon:\(uuid),7,2,-59@52.52004,13.405;beacon:\(uuid),8,1,-59@52.51997,13.405"

    @Test func jsonLinesShowEachScanWithTheConstraintsBeacons() throws {
        let output = try run(Executable.locationctl, [
            "beacons", "--json", "--count", "3", "--uuid", Self.uuid, "--major", "7", "--source", Self.source,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let scans = try output.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(scans.count == 3)
        #expect(scans.allSatisfy { $0["type"] as? String == "beacons" })
        let beacons = scans.flatMap { ($0["beacons"] as? [[String: Any]]) ?? [] }
        #expect(!beacons.isEmpty)
        #expect(beacons.allSatisfy { $0["uuid"] as? String == Self.uuid && $0["major"] as? Int == 7 })
        #expect(Set(beacons.compactMap { $0["minor"] as? Int }).isSubset(of: [1, 2]))
        let first = try #require(beacons.first)
        #expect(Set(first.keys) == ["uuid", "major", "minor", "proximity", "accuracy", "rssi", "timestamp"])
    }

    @Test func plainLinesNameEveryBeacon() throws {
        let output = try run(Executable.locationctl, [
            "beacons", "--count", "2", "--uuid", Self.uuid, "--major", "8", "--minor", "1", "--source", Self.source,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines.contains { $0.contains("major 8  minor 1") }, "\(output.lines)")
        #expect(!output.lines.contains { $0.contains("major 7") })
    }

    @Test func withoutABeaconSourceItSaysHowToAddOne() throws {
        let output = try run(Executable.locationctl, ["beacons", "--uuid", Self.uuid, "--source", "fixed:52.52,13.405"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("no beacon source"), "\(output.stderr)")
    }

    @Test(arguments: [["--uuid", "not-a-uuid"], ["--uuid", uuid, "--minor", "1"], ["--uuid", uuid, "--count", "0"]])
    func badOptionsAreRefused(_ options: [String]) throws {
        let output = try run(Executable.locationctl, ["beacons", "--source", "fixed:52.52,13.405"] + options)
        #expect(output.status != 0)
    }
}
