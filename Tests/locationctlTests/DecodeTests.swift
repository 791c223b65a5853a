import Foundation
import TestSupport
import Testing

/// `locationctl decode`: the real binary on real captures and on garbage.
@Suite struct DecodeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../LocationNMEATests/Fixtures").standardized

    private func objects(_ output: Finished) throws -> [[String: Any]] {
        try output.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func jsonHasTheKeysOfLocateAndTheCapturesValues() throws {
        let file = Self.fixtures.appendingPathComponent("ublox-m8n-gps-glonass.nmea").path
        let output = try run(Executable.locationctl, ["decode", "--json", file])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        let fixes = try objects(output)
        #expect(fixes.count == 8)
        for fix in fixes { #expect(Set(fix.keys) == Set(LocateWatchTests.keys)) }
        // Keys in the same order as locate's.
        let keyOrder = output.lines[0].split(separator: ",").map { $0.split(separator: ":")[0].trimmingCharacters(in: CharacterSet(charactersIn: "{\"")) }
        #expect(keyOrder == LocateWatchTests.keys)
        let first = fixes[0]
        #expect(abs((first["latitude"] as! Double) - (47 + 22.61322 / 60)) < 1e-9)
        #expect(abs((first["longitude"] as! Double) - (8 + 32.50164 / 60)) < 1e-9)
        #expect(first["altitude"] as? Double == 408.2)
        #expect(first["ellipsoidalAltitude"] as? Double == 455.5)
        #expect(first["horizontalAccuracy"] as? Double == 4.35, "HDOP 0.87 × 5 m")
        #expect(first["verticalAccuracy"] as? Double == 6.25, "VDOP 1.25 × 5 m")
        #expect(abs((first["speed"] as! Double) - 24.492 * 1852 / 3600) < 0.001)
        #expect(first["course"] as? Double == 52.3)
        #expect((first["speedAccuracy"] as! Double) > 0)
        #expect((first["courseAccuracy"] as! Double) > 0)
        #expect(first["timestamp"] as? String == "2024-03-14T08:14:31.000Z")
        #expect(first["simulated"] as? Bool == false)
    }

    @Test func sentinelsForWhatNMEADidNotSay() throws {
        // A 2D fix with no speed, course, date or DOP: RMC alone, status A, empty speed and course.
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let file = directory.appendingPathComponent("rmc.nmea")
        let body = "GPRMC,235959.50,A,3351.407,S,15112.918,E,,,,,,A"
        let checksum = String(format: "%02X", body.utf8.reduce(UInt8(0), ^))
        try "$\(body)*\(checksum)\r\n".write(to: file, atomically: true, encoding: .utf8)
        let output = try run(Executable.locationctl, ["decode", "--json", file.path])
        #expect(output.status == 0, "\(output.stderr)")
        let fix = try #require(try objects(output).first)
        #expect(abs((fix["latitude"] as! Double) + (33 + 51.407 / 60)) < 1e-9)
        #expect(fix["verticalAccuracy"] as? Double == -1)
        #expect(fix["speed"] as? Double == -1)
        #expect(fix["speedAccuracy"] as? Double == -1)
        #expect(fix["course"] as? Double == -1)
        #expect(fix["courseAccuracy"] as? Double == -1)
        #expect(fix["horizontalAccuracy"] as? Double == 10, "nominal HDOP 2 × 5 m")
        #expect(fix["timestamp"] as? String == "1970-01-01T23:59:59.500Z", "no date: the time of day on 1970-01-01")
    }

    @Test(arguments: ["-", nil] as [String?])
    func readsStandardInput(argument: String?) throws {
        let file = Self.fixtures.appendingPathComponent("sirf-star4-gps.nmea").path
        let command = "'\(Executable.locationctl.path)' decode --json \(argument ?? "") < '\(file)'"
        let output = try run(URL(fileURLWithPath: "/bin/sh"), ["-c", command])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines.count == 11)
    }

    @Test func garbageIsSkippedAndTheGoodFixesStillPrinted() throws {
        let good = try Data(contentsOf: Self.fixtures.appendingPathComponent("ublox-m8n-gps-glonass.nmea"))
        var bytes = Data()
        var state: UInt64 = 99
        func random() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        bytes.append(contentsOf: (0..<5000).map { _ in random() })
        for line in good.split(separator: UInt8(ascii: "\n")) {
            bytes.append(line)
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: (0..<Int(random() % 40)).map { _ in random() })
        }
        bytes.append(contentsOf: Array("$GPGGA,123519,48".utf8))  // cut off at the end
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let file = directory.appendingPathComponent("garbage.nmea")
        try bytes.write(to: file)
        let output = try run(Executable.locationctl, ["decode", "--json", "--stats", file.path])
        #expect(output.exitedNormally, "never a crash")
        #expect(output.status == 0)
        let fixes = try objects(output)
        #expect(fixes.count >= 6, "most of the 8 epochs survive: \(fixes.count)")
        let stats = output.stderr.split(separator: "\n")
        #expect(stats.count == 1, "\(output.stderr)")
        #expect(stats.first?.contains("bytes skipped") == true)
    }

    @Test func binaryOnlyInputPrintsNothing() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let file = directory.appendingPathComponent("binary.bin")
        try Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: file)
        let output = try run(Executable.locationctl, ["decode", "--json", file.path])
        #expect(output.exitedNormally)
        #expect(output.status == 0)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.isEmpty, "statistics only with --stats")
    }

    @Test func plainLinesWithoutJSON() throws {
        let file = Self.fixtures.appendingPathComponent("rtk-gst-zda.nmea").path
        let output = try run(Executable.locationctl, ["decode", file])
        #expect(output.status == 0)
        #expect(output.lines.count == 5)
        #expect(output.lines.first?.hasPrefix("2023-09-30T23:10:05.000Z  -33.856784, 151.215297") == true, "\(output.lines.first ?? "")")
    }

    @Test func aMissingFileIsAOneLineErrorAndExitOne() throws {
        let output = try run(Executable.locationctl, ["decode", "/nonexistent/track.nmea"])
        #expect(output.exitedNormally)
        #expect(output.status == 1)
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(output.stderr)")
        #expect(lines.first?.hasPrefix("Error:") == true)
        #expect(lines.first?.contains("/nonexistent/track.nmea") == true)
        #expect(output.stdout.isEmpty)
    }
}
