import Foundation
import LocationAccess
import LocationCore
import LocationDaemonClient
import LocationEngine
import LocationPersistence
import LocationPolicy
import LocationProtocol
import Logging
@testable import LocationDaemon
import TestSupport
import Testing

/// Reduced accuracy through a real daemon: the rate limit is the app's, whatever the number of
/// connections, streams, launches or daemon restarts.
@Suite(.timeLimit(.minutes(2)))
struct DaemonApproximateTests {
    /// 300 m/s at 20×: a new 5.6 km grid cell every second of the test.
    static func fastDrive(from start: (latitude: Double, longitude: Double) = (40.0, -3.7)) -> StraightDriveSource {
        StraightDriveSource(start: start, azimuth: 0, speed: 300, timeScale: 20)
    }

    static let app = AppIdentity(id: "ignored", displayName: "ignored", executablePath: "/ignored")
    static let process = ProcessStamp(pid: 1, startTime: 1)
    static let single = UpdateRequest(mode: .single, desiredAccuracy: 10)
    static let continuous = UpdateRequest(mode: .continuous, desiredAccuracy: 10)

    final class Received: Sendable {
        private let fixes = Locked<[Fix]>([])
        var handler: @Sendable (ServiceEvent) -> Void {
            { event in
                if case .stream(_, .locations(let received)) = event { self.fixes.withLock { $0 += received } }
            }
        }
        var all: [Fix] { fixes.withLock { $0 } }
    }

    static func authorizeReduced(_ fixture: DaemonFixture) throws {
        // Without an Info.plist beside the test executable the daemon names this process by its path.
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        try fixture.store.update { database in
            database.apps[executable] = AppRecord(
                status: .authorizedWhenInUse, accuracy: .reducedAccuracy, displayName: "tests",
                executablePath: executable, updated: Date())
        }
    }

    static func positions(_ received: [Received]) -> Set<String> {
        Set(received.flatMap(\.all).map { "\($0.latitude),\($0.longitude)" })
    }

    @Test func managersRestartedStreamsSingleRequestsAndRelaunchesLearnOnePositionIn15Minutes() async throws {
        let drive = Self.fastDrive()
        let fixture = try DaemonFixture(sources: [drive])
        try Self.authorizeReduced(fixture)
        let first = DaemonServiceProvider(socketPath: fixture.socketPath)
        let a = Received(), b = Received(), c = Received()
        let managerA = first.connect(app: Self.app, info: AppInfo(), process: Self.process, events: a.handler)
        let managerB = first.connect(app: Self.app, info: AppInfo(), process: Self.process, events: b.handler)
        managerA.send(.startUpdates(1, Self.continuous))
        managerB.send(.startUpdates(1, Self.continuous))
        #expect(await eventually(timeout: .seconds(20)) { !a.all.isEmpty && !b.all.isEmpty })
        for stream: StreamID in 2...6 {
            try await Task.sleep(for: .milliseconds(300))
            managerA.send(.stopUpdates(stream - 1))
            managerA.send(.startUpdates(stream, Self.continuous))
            managerB.send(.startUpdates(stream + 10, Self.single))
        }
        #expect(await eventually(timeout: .seconds(20)) { a.all.count >= 6 && b.all.count >= 6 })
        managerA.close()
        managerB.close()

        // The app launched again: a new process, a new link.
        let relaunched = DaemonServiceProvider(socketPath: fixture.socketPath)
        let later = relaunched.connect(app: Self.app, info: AppInfo(), process: ProcessStamp(pid: 2, startTime: 2), events: c.handler)
        defer { later.close() }
        later.send(.startUpdates(1, Self.single))
        #expect(await eventually(timeout: .seconds(20)) { !c.all.isEmpty })

        // The device is in another region than where it started (the fixture's layout is the grid).
        let moved = try #require(fixture.daemon.engine.status.lastFix)
        let grid = GridApproximateRegions()
        #expect(grid.region(latitude: moved.latitude, longitude: moved.longitude).id
                != grid.region(latitude: drive.start.latitude, longitude: drive.start.longitude).id)
        #expect(Self.positions([a, b, c]).count == 1, "\(Self.positions([a, b, c]))")
        #expect([a, b, c].flatMap(\.all).allSatisfy { $0.horizontalAccuracy >= 1_000 && $0.speed < 0 })
    }

    @Test func aRestartedDaemonRemembersWhatTheAppWasToldAndKeepsItSealed() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        func daemon(from start: (latitude: Double, longitude: Double)) throws -> DaemonFixture {
            let fixture = try DaemonFixture(sources: [Self.fastDrive(from: start)]) { configuration in
                configuration.approximateStorageFactory = DaemonConfiguration.standardApproximateStorage(in: state.url, logger: .init(label: "test"))
            }
            try Self.authorizeReduced(fixture)
            return fixture
        }
        let before = Received()
        do {
            let fixture = try daemon(from: (40.0, -3.7))
            let provider = DaemonServiceProvider(socketPath: fixture.socketPath)
            let connection = provider.connect(app: Self.app, info: AppInfo(), process: Self.process, events: before.handler)
            connection.send(.startUpdates(1, Self.single))
            #expect(await eventually(timeout: .seconds(20)) { !before.all.isEmpty })
            connection.close()
            fixture.daemon.stop()
        }
        let told = try #require(before.all.first)

        // Every file under the state directory is sealed: the coordinate is nowhere in the clear.
        let files = FileManager.default.enumerator(atPath: state.url.path)?.compactMap { $0 as? String } ?? []
        let sealed = files.filter { $0.hasPrefix(ApproximationStore.directoryName + "/") && $0.hasSuffix(".approximate") }
        #expect(sealed.count == 1, "\(files)")
        for file in files {
            let bytes = (try? Data(contentsOf: state.url.appendingPathComponent(file))) ?? Data()
            #expect(bytes.range(of: Data(String(told.latitude).prefix(6).utf8)) == nil, "\(file) holds the latitude")
        }

        // A new daemon, the device 300 km further: the app is told what it was told, nothing fresher.
        let after = Received()
        let fixture = try daemon(from: (43.0, -3.7))
        let provider = DaemonServiceProvider(socketPath: fixture.socketPath)
        let connection = provider.connect(app: Self.app, info: AppInfo(), process: ProcessStamp(pid: 3, startTime: 3), events: after.handler)
        defer { connection.close() }
        connection.send(.startUpdates(1, Self.continuous))
        #expect(await eventually(timeout: .seconds(20)) { !after.all.isEmpty })
        try await Task.sleep(for: .seconds(1))
        #expect(after.all.map(\.latitude) == [told.latitude] && after.all.map(\.longitude) == [told.longitude])
    }
}
