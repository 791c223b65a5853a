import CoreLocation
import Foundation
import LocationAccess
import LocationBootstrap
import LocationCore
import LocationDaemon
import LocationDaemonClient
import LocationPolicy
import LocationProtocol
import LocationSources
import TestSupport
import Testing

/// `CLMonitor` through a real daemon on a temporary socket: the request and update cases on the
/// wire, the link routing fence updates to the monitors that opened the group, and the daemon's
/// service keeping conditions for the next monitor with the same name.
@Suite(.timeLimit(.minutes(2)))
struct DaemonMonitorTests {
    static let circle = CLMonitor.CircularGeographicCondition(
        center: CLLocationCoordinate2D(latitude: 52.52, longitude: 13.405), radius: 200)

    /// A daemon whose receiver the test moves, and this process authorized When In Use.
    static func authorizedDaemon(
        _ source: MovableSource, store: (any AuthorizationStore)? = nil, fences: any FenceStorage = MemoryFenceStorage()
    ) async throws -> DaemonFixture {
        let fixture = try DaemonFixture(sources: [source], store: store) { $0.fenceStorageFactory = { _ in fences } }
        let (client, identity, _) = try await fixture.welcomedClient()
        client.close()
        try fixture.store.update { database in
            database.apps[identity.id] = AppRecord(
                status: .authorizedWhenInUse, displayName: "tests", executablePath: identity.executablePath, updated: Date())
        }
        return fixture
    }

    /// A monitor talking to the daemon through `provider` (one provider: one process's socket).
    static func monitor(_ name: String, through provider: DaemonServiceProvider) async -> CLMonitor {
        // Who the app is, is the daemon's verdict: these are not sent.
        let system = LocationSystem(
            provider: provider, app: AppIdentity(id: "unused", displayName: "unused", executablePath: "/unused"),
            info: AppInfo(), process: ProcessStamp(pid: getpid(), startTime: 0))
        return await LocationSystem.$override.withValue(system) { await CLMonitor(name) }
    }

    @Test func entersAndLeavesThroughTheDaemonAndASecondProcessSharesTheMonitor() async throws {
        let receiver = MovableSource(latitude: 52.5227, longitude: 13.405, interval: 0.2)
        let fixture = try await Self.authorizedDaemon(receiver)
        let first = await Self.monitor("commute", through: DaemonServiceProvider(socketPath: fixture.socketPath))
        let firstEvents = Recorder(first.events)
        await first.add(Self.circle, identifier: "office")
        #expect(await firstEvents.wait { $0.map(\.state) == [.unsatisfied] })
        receiver.move(latitude: 52.52, longitude: 13.405)
        #expect(await firstEvents.wait { $0.map(\.state) == [.unsatisfied, .satisfied] })

        // Another process of the same app: its own socket, the same monitor.
        let second = await Self.monitor("commute", through: DaemonServiceProvider(socketPath: fixture.socketPath))
        #expect(await second.identifiers == ["office"])
        let record = try #require(await second.record(for: "office"))
        #expect(record.lastEvent.state == .satisfied)
        #expect((record.condition as? CLMonitor.CircularGeographicCondition)?.radius == 200)
        let secondEvents = Recorder(second.events)

        receiver.move(latitude: 52.5227, longitude: 13.405)
        #expect(await firstEvents.wait { $0.map(\.state) == [.unsatisfied, .satisfied, .unsatisfied] })
        #expect(await secondEvents.wait { $0.map(\.state) == [.unsatisfied] })
        #expect(await second.record(for: "office")?.lastEvent.state == .unsatisfied)
        await firstEvents.stop()
        await secondEvents.stop()
    }

    @Test func aRestartedDaemonRestoresTheMonitorAndReportsOnlyRealChanges() async throws {
        let store = MemoryAuthorizationStore()
        let fences = MemoryFenceStorage()
        let receiver = MovableSource(latitude: 52.52, longitude: 13.405, interval: 0.2)
        do {
            let fixture = try await Self.authorizedDaemon(receiver, store: store, fences: fences)
            let monitor = await Self.monitor("restart", through: DaemonServiceProvider(socketPath: fixture.socketPath))
            let events = Recorder(monitor.events)
            await monitor.add(Self.circle, identifier: "office")
            #expect(await events.wait { $0.map(\.state) == [.satisfied] })
            await events.stop()
            fixture.daemon.stop()
        }

        let fixture = try await Self.authorizedDaemon(receiver, store: store, fences: fences)
        let monitor = await Self.monitor("restart", through: DaemonServiceProvider(socketPath: fixture.socketPath))
        #expect(await monitor.identifiers == ["office"])
        #expect(await monitor.record(for: "office")?.lastEvent.state == .satisfied)
        let events = Recorder(monitor.events)
        try await Task.sleep(for: .seconds(1))
        #expect(events.events.isEmpty, "still inside: no event")
        receiver.move(latitude: 52.5227, longitude: 13.405)
        #expect(await events.wait { $0.map(\.state) == [.unsatisfied] })
        await events.stop()
    }

    @Test func overTheLimitAndUnsupportedConditionsTravelAsEvents() async throws {
        let fixture = try await Self.authorizedDaemon(MovableSource(latitude: 52.5227, longitude: 13.405, interval: 0.2))
        let monitor = await Self.monitor("flags", through: DaemonServiceProvider(socketPath: fixture.socketPath))
        let events = Recorder(monitor.events)
        await monitor.add(CLMonitor.BeaconIdentityCondition(uuid: UUID(), major: 1, minor: 2), identifier: "beacon")
        #expect(await events.wait { $0.contains { $0.identifier == "beacon" } })
        let beacon = try #require(events.events.first { $0.identifier == "beacon" })
        #expect(beacon.conditionUnsupported && beacon.state == .unmonitored)

        let again = await Self.monitor("flags", through: DaemonServiceProvider(socketPath: fixture.socketPath))
        let restored = try #require(await again.record(for: "beacon"))
        let condition = try #require(restored.condition as? CLMonitor.BeaconIdentityCondition)
        #expect(condition.major == 1 && condition.minor == 2)
        #expect(restored.lastEvent.conditionUnsupported)
        await events.stop()
    }
}

/// Iterates a monitor's events in a task of its own and keeps them.
private final class Recorder: Sendable {
    private let seen = Locked<[CLMonitor.Event]>([])
    private let task: Task<Void, Never>

    init(_ events: CLMonitor.Events) {
        let seen = seen
        task = Task {
            do {
                for try await event in events { seen.withLock { $0.append(event) } }
            } catch {
                Issue.record("iterating the events threw \(error)")
            }
        }
    }

    var events: [CLMonitor.Event] { seen.withLock { $0 } }

    func wait(_ condition: ([CLMonitor.Event]) -> Bool) async -> Bool {
        await eventually(timeout: .seconds(15)) { condition(events) }
    }

    func stop() async {
        task.cancel()
        await task.value
    }
}
