import Foundation
import LocationCore
import LocationProtocol
import LocationSources
import Testing
@testable import LocationEngine

/// `CORELOCATION_SOURCE='gpx:drive.gpx?speed=3600'`: an app's hour of driving replays through the
/// in-process engine in a second of the engine's clock, every fix stamped in simulated time.
@Suite struct TimeWarpedReplayTests {
    /// A recorded drive of exactly one hour: due north at 10 m/s, one point a minute.
    static func writeHourLongDrive() throws -> URL {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let formatter = ISO8601DateFormatter()
        var points = ""
        for minute in 0...60 {
            let latitude = 45.0 + Double(minute) * 600 / 111_132
            let time = formatter.string(from: start.addingTimeInterval(Double(minute) * 60))
            points += "<trkpt lat=\"\(latitude)\" lon=\"7.0\"><time>\(time)</time></trkpt>\n"
        }
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="TimeWarpedReplayTests" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg>
            \(points)</trkseg></trk>
            </gpx>
            """
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("hour-drive-\(UUID().uuidString).gpx")
        try Data(gpx.utf8).write(to: url)
        return url
    }

    @Test func anHourLongDriveReplaysInASecondOfLoopTime() throws {
        let file = try Self.writeHourLongDrive()
        defer { try? FileManager.default.removeItem(at: file) }
        let sources = SourceConfiguration.configuredSources(
            environment: [SourceConfiguration.environmentVariable: "gpx:\(file.path)?speed=3600"],
            userFile: URL(fileURLWithPath: "/nonexistent/user"), systemFile: URL(fileURLWithPath: "/nonexistent/system"))
        #expect(sources.count == 1)
        let loop = VirtualLoop()
        let start = loop.now
        let engine = LocationEngine(loop: loop, sources: sources)
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest(distanceFilter: -1, pausesAutomatically: false)) { log.record($0) }

        loop.advance(by: 0.999)
        #expect(log.fixes.count == 3597, "one fix per simulated second, 3600 per loop second")
        #expect(log.count(of: .sourceFinished) == 0)
        loop.advance(by: 0.002)
        #expect(log.count(of: .sourceFinished) == 1)

        let fixes = log.fixes
        #expect(fixes.count == 3601, "0 s to 3600 s of the drive, every second")
        // Timestamps are in simulated time: one second apart, an hour in all, from the engine's start.
        #expect(fixes.first?.timestamp == start)
        #expect(fixes.last?.timestamp == start.addingTimeInterval(3600))
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { abs($1.timestamp.timeIntervalSince($0.timestamp) - 1) < 1e-6 })
        // Speeds agree with simulated time (10 m/s), not with the loop's clock (36 km/s).
        #expect(fixes.dropFirst().allSatisfy { abs($0.speed - 10) < 0.1 })
        #expect(abs(fixes[fixes.count - 1].latitude - (45.0 + 36_000 / 111_132)) < 1e-6)
    }

    /// The same on the wall clock: the hour passes in about a second, and the replay finishes.
    @Test(.timeLimit(.minutes(2)))
    func anHourLongDriveReplaysInAboutASecondOfRealTime() async throws {
        let file = try Self.writeHourLongDrive()
        defer { try? FileManager.default.removeItem(at: file) }
        let engine = LocationEngine(loop: RealtimeLoop(), sources: [try SourceSpec("gpx:\(file.path)?speed=3600").makeSource()])
        let clock = ContinuousClock()
        // The end is timed on the engine's own thread, where it happens: the test's task may wake
        // late when other tests hold the cooperative threads.
        let received = Locked((fixes: [Fix](), finished: ContinuousClock.Instant?.none))
        let started = clock.now
        let subscription = engine.subscribe(UpdateRequest(distanceFilter: -1, pausesAutomatically: false)) { event in
            switch event {
            case .locations(let fixes): received.withLock { $0.fixes += fixes }
            case .sourceFinished: received.withLock { $0.finished = clock.now }
            default: break
            }
        }
        defer { subscription.cancel() }
        while received.withLock({ $0.finished }) == nil, clock.now - started < .seconds(40) {
            try await Task.sleep(for: .milliseconds(5))
        }
        let fixes = received.withLock { $0.fixes }
        let finished = try #require(received.withLock { $0.finished })
        let seconds = Double((finished - started).components.seconds) + Double((finished - started).components.attoseconds) / 1e18
        #expect(seconds > 0.9 && seconds < 5, "took \(seconds) s")
        // Every fix normally arrives (3601); a machine that stalls the loop for more than a quarter
        // of a second makes the player skip what fell due meanwhile. Whatever arrives is in
        // simulated time and in order.
        try #require(fixes.count > 100, "\(fixes.count) fixes")
        #expect(abs(fixes[fixes.count - 1].timestamp.timeIntervalSince(fixes[0].timestamp) - 3600) < 1e-6)
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }
}
