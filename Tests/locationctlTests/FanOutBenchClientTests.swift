import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension Executable {
    static let bench = directory.appendingPathComponent("corelocation-bench")
}

/// `corelocation-bench locationd-clients`, the client side of `scripts/bench-locationd.sh`, against a
/// real `locationd` reading a 10 Hz NMEA stream whose fix times the test chose. The benchmark's
/// latency is a join on those fix times, so they must come through exactly.
@Suite(.timeLimit(.minutes(2))) struct FanOutBenchClientTests {
    static func startDaemon(in directory: String, feeder: NMEAEpochFeeder) throws -> Child {
        let daemon = try Child(Executable.locationd, [
            "--socket", directory + "/d.sock", "--state-dir", directory + "/state",
            "--source", "nmea:tcp://127.0.0.1:\(feeder.port)",
        ])
        guard daemon.waitForOutput(timeout: 20, containing: "listening on") else {
            let output = daemon.finish(timeout: 1)
            throw FeederError(description: "locationd did not start: \(output.stderr)")
        }
        return daemon
    }

    @Test(arguments: ["nio", "epoll"])
    func everyClientRecordsTheReceiversFixTimesWithTheirReceiveTimes(io: String) throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.path
        let feeder = try NMEAEpochFeeder()
        defer { feeder.stop() }
        let grant = try run(Executable.locationctl, ["grant", Executable.bench.path, "--state-dir", directory + "/state"])
        #expect(grant.status == 0, "\(grant.stderr)")
        let daemon = try Self.startDaemon(in: directory, feeder: feeder)
        defer { kill(daemon.process.processIdentifier, SIGTERM); _ = daemon.finish(timeout: 5) }

        let clients = 8
        let output = try run(Executable.bench, [
            "locationd-clients", "--socket", directory + "/d.sock", "--clients", "\(clients)", "--seconds", "2",
            "--out", directory + "/deliveries.tsv", "--io", io,
        ], timeout: 30)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("ready clients=\(clients) "))
        #expect(output.stdout.contains("io=\(io) "))

        let rows = try String(contentsOfFile: directory + "/deliveries.tsv", encoding: .utf8)
            .split(separator: "\n").dropFirst()
            .map { $0.split(separator: "\t").compactMap { Int64($0) } }
        #expect(rows.allSatisfy { $0.count == 3 })
        let sent = feeder.sent
        var fixesByClient: [Int64: [Int64]] = [:]
        for row in rows where row.count == 3 {
            let (client, fix, received) = (row[0], row[1], row[2])
            fixesByClient[client, default: []].append(fix)
            let sentAt = try #require(sent[fix], "fix time \(fix) was never sent")
            #expect(received > sentAt, "received before it was sent")
            #expect(received - sentAt < 2_000_000_000)
        }
        #expect(fixesByClient.count == clients)
        for (client, fixes) in fixesByClient {
            // Two seconds at 10 Hz, in order, each once.
            #expect(fixes.count >= 10, "client \(client) got \(fixes.count) fixes")
            #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0 < $1 }, "client \(client): \(fixes)")
        }
    }

    @Test(arguments: ["nio", "epoll"])
    func anUngrantedBenchStopsAndSaysWhy(io: String) throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.path
        let feeder = try NMEAEpochFeeder()
        defer { feeder.stop() }
        let daemon = try Self.startDaemon(in: directory, feeder: feeder)
        defer { kill(daemon.process.processIdentifier, SIGTERM); _ = daemon.finish(timeout: 5) }

        let output = try run(Executable.bench, [
            "locationd-clients", "--socket", directory + "/d.sock", "--clients", "3", "--seconds", "1",
            "--out", directory + "/deliveries.tsv", "--io", io,
        ], timeout: 30)
        #expect(output.exitedNormally && output.status == 1)
        #expect(output.stdout.contains("not authorized"), "\(output.stdout)")
        #expect(output.stdout.contains("grant \(Executable.bench.path) first"), "\(output.stdout)")
        #expect(!output.stdout.contains("ready"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/deliveries.tsv"))
    }
}
