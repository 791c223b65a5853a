import Foundation
import LocationCore
import LocationDaemonClient
import LocationGeodesy
import LocationPolicy
import LocationProtocol
import LocationSources
@testable import LocationDaemon
import TestSupport
import Testing

/// Fences through a real daemon on a temporary socket: the same rules as in-process, over the wire.
@Suite(.timeLimit(.minutes(2)))
struct DaemonFenceTests {
    static let centre = (latitude: 52.52, longitude: 13.405)

    /// Drives east through the centre from 500 m west, at 10 m/s, 20 simulated seconds per second.
    static func drive() -> StraightDriveSource {
        let start = Geodesic.wgs84.direct(latitude: centre.latitude, longitude: centre.longitude, azimuth: 270, distance: 500)
        return StraightDriveSource(start: (start.latitude, start.longitude), azimuth: 90, speed: 10, timeScale: 20)
    }

    static let block = FenceDefinition(
        identifier: "block", condition: .circle(latitude: centre.latitude, longitude: centre.longitude, radius: 100))

    /// What one connection received, with arrival times.
    final class Received: Sendable {
        private let events = Locked<[(ServiceEvent, Date)]>([])

        var handler: @Sendable (ServiceEvent) -> Void { { event in self.events.withLock { $0.append((event, Date())) } } }

        var fenceUpdates: [FenceUpdate] {
            events.withLock { $0.compactMap { if case let .fences(_, update) = $0.0 { update } else { nil } } }
        }

        var changes: [(state: FenceState, arrived: Date)] {
            events.withLock {
                $0.compactMap { if case let .fences(_, .changed(event)) = $0.0 { (event.state, $0.1) } else { nil } }
            }
        }
    }

    static func authorize(_ fixture: DaemonFixture, _ status: AuthorizationStatus) throws -> String {
        // Without an Info.plist beside the test executable the daemon names this process by its path.
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        try fixture.store.update { database in
            database.apps[executable] = AppRecord(status: status, displayName: "tests", executablePath: executable, updated: Date())
        }
        return executable
    }

    static let app = AppIdentity(id: "ignored", displayName: "ignored", executablePath: "/ignored")

    @Test func aDriveThroughACircleGivesTheStatesOverTheSocket() async throws {
        let fixture = try DaemonFixture(sources: [Self.drive()])
        _ = try Self.authorize(fixture, .authorizedWhenInUse)
        let provider = DaemonServiceProvider(socketPath: fixture.socketPath)
        let received = Received()
        let connection = provider.connect(app: Self.app, info: AppInfo(), process: ProcessStamp(pid: 1, startTime: 1), events: received.handler)
        defer { connection.close() }
        connection.send(.openFences(.regions))
        connection.send(.addFence(.regions, Self.block))
        #expect(await eventually(timeout: .seconds(20)) { received.changes.count >= 3 }, "\(received.fenceUpdates)")
        #expect(received.changes.map(\.state) == [.outside, .inside, .outside])
        let updates = received.fenceUpdates
        #expect(updates.first == .snapshot([]))
        guard updates.count > 1, case .started(let record) = updates[1] else {
            Issue.record("no start: \(updates)")
            return
        }
        #expect(record.definition == Self.block)
        let listing = try DaemonControl.listFences(socketPath: fixture.socketPath)
        #expect(listing.first?.groups.first?.records.first?.lastEvent.state == .outside)
    }

    @Test func revokingTheAppStopsItsEventsWithinATenthOfASecond() async throws {
        // The receiver moves only when the test says so: the wall clock of a loaded machine decides
        // nothing here.
        let receiver = MovableSource(latitude: Self.centre.latitude, longitude: Self.centre.longitude, interval: 0.2)
        let away = Geodesic.wgs84.direct(latitude: Self.centre.latitude, longitude: Self.centre.longitude, azimuth: 90, distance: 1000)
        let fixture = try DaemonFixture(sources: [receiver])
        let executable = try Self.authorize(fixture, .authorizedWhenInUse)
        let provider = DaemonServiceProvider(socketPath: fixture.socketPath)
        let received = Received()
        let connection = provider.connect(app: Self.app, info: AppInfo(), process: ProcessStamp(pid: 1, startTime: 1), events: received.handler)
        defer { connection.close() }
        connection.send(.openFences(.regions))
        connection.send(.addFence(.regions, Self.block))
        #expect(await eventually(timeout: .seconds(20)) { received.changes.map(\.state) == [.inside] }, "\(received.fenceUpdates)")
        // While authorized, leaving and coming back is reported: the same move later must be silent
        // because of the revocation alone.
        receiver.move(latitude: away.latitude, longitude: away.longitude)
        #expect(await eventually(timeout: .seconds(20)) { received.changes.count >= 2 })
        receiver.move(latitude: Self.centre.latitude, longitude: Self.centre.longitude)
        #expect(await eventually(timeout: .seconds(20)) { received.changes.count >= 3 })
        #expect(received.changes.map(\.state) == [.inside, .outside, .inside])

        try DaemonControl.apply(.revoke(app: executable), socketPath: fixture.socketPath)
        let revoked = Date()
        receiver.move(latitude: away.latitude, longitude: away.longitude)
        try await Task.sleep(for: .seconds(3))
        let late = received.changes.filter { $0.arrived > revoked.addingTimeInterval(0.1) }
        #expect(late.isEmpty, "\(late)")
        #expect(received.changes.map(\.state) == [.inside, .outside, .inside], "no exit after the revocation")
    }
}
