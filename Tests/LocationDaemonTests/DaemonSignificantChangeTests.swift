import Foundation
import LocationCore
import LocationDaemonClient
import LocationEngine
import LocationPolicy
import LocationProtocol
@testable import LocationDaemon
import TestSupport
import Testing

/// Significant change through a real daemon: the same stream rules and authorization as in-process.
@Suite(.timeLimit(.minutes(2)))
struct DaemonSignificantChangeTests {
    static let app = AppIdentity(id: "ignored", displayName: "ignored", executablePath: "/ignored")
    static let significant = UpdateRequest(mode: .significantChange)

    final class Received: Sendable {
        private let events = Locked<[StreamEvent]>([])
        var handler: @Sendable (ServiceEvent) -> Void {
            { event in if case .stream(_, let streamEvent) = event { self.events.withLock { $0.append(streamEvent) } } }
        }
        var fixes: [Fix] {
            events.withLock { events in events.flatMap { event -> [Fix] in if case .locations(let fixes) = event { fixes } else { [] } } }
        }
        var failures: [StreamFailure] { events.withLock { $0.compactMap { if case .failed(let failure) = $0 { failure } else { nil } } } }
    }

    static func authorize(_ fixture: DaemonFixture, _ status: AuthorizationStatus) throws {
        // Without an Info.plist beside the test executable the daemon names this process by its path.
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        try fixture.store.update { database in
            database.apps[executable] = AppRecord(status: status, displayName: "tests", executablePath: executable, updated: Date())
        }
    }

    @Test func aFastDriveGivesAFirstUpdateAndTheReceiverRestsUntilTheNextWake() async throws {
        // 300 m/s at 20×: 18 km in three seconds.
        let fixture = try DaemonFixture(sources: [StraightDriveSource(start: (48.0, 2.0), azimuth: 90, speed: 300, timeScale: 20)])
        try Self.authorize(fixture, .authorizedWhenInUse)
        let received = Received()
        let connection = DaemonServiceProvider(socketPath: fixture.socketPath)
            .connect(app: Self.app, info: AppInfo(), process: ProcessStamp(pid: 1, startTime: 1), events: received.handler)
        defer { connection.close() }
        connection.send(.startUpdates(1, Self.significant))
        #expect(await eventually(timeout: .seconds(20)) { !received.fixes.isEmpty })
        #expect(await eventually(timeout: .seconds(5)) { fixture.daemon.engine.status.activeSource == nil }, "the receiver rests")
        try await Task.sleep(for: .seconds(3))
        #expect(received.fixes.count == 1, "the next update needs five minutes and 500 m")
        #expect(received.fixes.first.map { $0.horizontalAccuracy <= 500 } == true)
    }

    @Test func aDeniedAppGetsDeniedAndNoFix() async throws {
        let fixture = try DaemonFixture(sources: [StraightDriveSource(start: (48.0, 2.0), azimuth: 90, speed: 300, timeScale: 20)])
        try Self.authorize(fixture, .denied)
        let received = Received()
        let connection = DaemonServiceProvider(socketPath: fixture.socketPath)
            .connect(app: Self.app, info: AppInfo(), process: ProcessStamp(pid: 1, startTime: 1), events: received.handler)
        defer { connection.close() }
        connection.send(.startUpdates(1, Self.significant))
        #expect(await eventually(timeout: .seconds(20)) { received.failures.contains(.denied) })
        try await Task.sleep(for: .seconds(1))
        #expect(received.fixes.isEmpty)
        #expect(fixture.daemon.engine.status.activeSource == nil)
    }
}
