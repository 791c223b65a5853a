import Foundation
import LocationAccess
import LocationCore
import LocationEngine
import LocationGeodesy
import LocationPolicy
import LocationProtocol
import LocationSources
import TestSupport
import Testing

/// An app's hour-long drive through 50 fences, replayed at 720× real time (`gpx:…?speed=720`)
/// through the in-process engine on the real clock: every fence entered and left, in seconds.
@Suite struct TimeWarpedFenceTests {
    static let app = AppIdentity(id: "com.example.Drive", displayName: "Drive", executablePath: "/usr/bin/drive")

    /// An hour due north at 10 m/s from 45° N, 7° E: a point a minute (the replay moves along the
    /// geodesic between them, one fix a simulated second).
    static func writeHourLongDrive(in directory: URL) throws -> URL {
        let formatter = ISO8601DateFormatter()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var points = ""
        for minute in 0...60 {
            let point = Geodesic.wgs84.direct(latitude: 45, longitude: 7, azimuth: 0, distance: Double(minute) * 600)
            points += "<trkpt lat=\"\(point.latitude)\" lon=\"\(point.longitude)\"><time>\(formatter.string(from: start.addingTimeInterval(Double(minute) * 60)))</time></trkpt>\n"
        }
        let url = directory.appendingPathComponent("hour.gpx")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="TimeWarpedFenceTests" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg>
            \(points)</trkseg></trk>
            </gpx>
            """.utf8).write(to: url)
        return url
    }

    @Test(.timeLimit(.minutes(2)))
    func anHourDriveThroughFiftyFencesRunsInSeconds() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Self.writeHourLongDrive(in: directory.url)
        let engine = LocationEngine(loop: RealtimeLoop(), sources: [try SourceSpec("gpx:\(file.path)?speed=720").makeSource()])
        let store = MemoryAuthorizationStore()
        try store.update { database in
            database.apps[Self.app.id] = AppRecord(status: .authorizedWhenInUse, displayName: "Drive",
                                                   executablePath: Self.app.executablePath, updated: Date())
        }
        let service = LocationService(engine: engine, store: store, prompter: nil, isAlive: { _ in true },
                                      fenceLimits: FenceLimits(fencesPerApp: 50))
        let changes = Locked<[FenceEvent]>([])
        let connection = service.connect(app: Self.app, info: AppInfo(), process: ProcessStamp(pid: 1, startTime: 1)) { event in
            if case let .fences(_, .changed(change)) = event { changes.withLock { $0.append(change) } }
        }
        defer { connection.close() }
        let clock = ContinuousClock()
        let started = clock.now
        connection.send(.openFences(.regions))
        // 100 m circles every 700 m along the way.
        for index in 1...50 {
            let centre = Geodesic.wgs84.direct(latitude: 45, longitude: 7, azimuth: 0, distance: Double(index) * 700)
            connection.send(.addFence(.regions, FenceDefinition(
                identifier: "fence-\(index)", condition: .circle(latitude: centre.latitude, longitude: centre.longitude, radius: 100))))
        }
        func crossings() -> (entered: Set<String>, exited: Set<String>) {
            changes.withLock { events in
                var entered = Set<String>(), exited = Set<String>()
                for event in events {
                    if event.state == .inside { entered.insert(event.identifier) }
                    if event.state == .outside, entered.contains(event.identifier) { exited.insert(event.identifier) }
                }
                return (entered, exited)
            }
        }
        #expect(await eventually(timeout: .seconds(30)) { crossings().exited.count == 50 })
        let elapsed = clock.now - started
        #expect(crossings().entered.count == 50)
        #expect(elapsed < .seconds(15), "an hour's drive took \(elapsed)")
    }
}
