import CoreLocation
import Foundation
import LocationAccess
import LocationBootstrap
import LocationCore
import LocationDaemonClient
import LocationPolicy
import LocationProtocol
import LocationSources
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemon

/// Beacon ranging and beacon monitoring through a real `locationd` on a temporary socket, with
/// simulated beacons: on the wire, through the client link as `CLLocationManager` uses it, and
/// `CLMonitor` conditions kept by the daemon across a restart.
@Suite(.timeLimit(.minutes(2)))
struct DaemonBeaconTests {
    static let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let place = (latitude: 52.52, longitude: 13.405)
    static let constraint = BeaconConstraint(uuid: uuid, major: 7)

    /// A device standing 2 m from beacon 7.1 and 4 m from 8.1.
    static func sources() -> [any LocationSource] {
        let beacons = [(7, 2.0), (8, -4.0)].map { major, metres in
            SimulatedBeacon(identity: BeaconIdentity(uuid: uuid, major: UInt16(major), minor: 1), measuredPower: -59,
                            latitude: place.latitude + metres / 111_320, longitude: place.longitude)
        }
        return [FixedSource(latitude: place.latitude, longitude: place.longitude),
                SimulatedBeaconScanner(beacons: beacons, device: { _ in (place.latitude, place.longitude) }, name: "beacons")]
    }

    static func scans(_ client: WireClient, on stream: StreamID) -> [[RangedBeacon]] {
        client.messages.compactMap { if case .event(.stream(stream, .beacons(let beacons))) = $0 { beacons } else { nil } }
    }

    static func failures(_ client: WireClient, on stream: StreamID) -> [StreamFailure] {
        client.messages.compactMap { if case .event(.stream(stream, .failed(let failure))) = $0 { failure } else { nil } }
    }

    /// A welcomed client whose app the store authorizes as given.
    static func client(
        _ fixture: DaemonFixture, _ status: AuthorizationStatus, accuracy: AccuracyAuthorization = .fullAccuracy
    ) async throws -> WireClient {
        let (client, identity, _) = try await fixture.welcomedClient()
        try fixture.store.update { database in
            database.apps[identity.id] = AppRecord(
                status: status, accuracy: accuracy, displayName: "tests", executablePath: identity.executablePath, updated: Date())
        }
        // The daemon re-reads the store on its own poll; a connection made now is judged on it.
        client.close()
        let (authorized, _, _) = try await fixture.welcomedClient()
        return authorized
    }

    @Test func rangingOnTheWireDeliversOnlyTheConstraintsBeaconsAndStops() async throws {
        let fixture = try DaemonFixture(sources: Self.sources())
        let client = try await Self.client(fixture, .authorizedWhenInUse)
        client.send(.request(.startRanging(4, Self.constraint)))
        #expect(await eventually(timeout: .seconds(10)) { Self.scans(client, on: 4).filter { !$0.isEmpty }.count >= 2 })
        let identities = Set(Self.scans(client, on: 4).flatMap { $0.map(\.identity) })
        #expect(identities == [BeaconIdentity(uuid: Self.uuid, major: 7, minor: 1)], "major 8 is not the app's to see")
        #expect(Self.failures(client, on: 4).isEmpty)

        client.send(.request(.stopRanging(4)))
        try await Task.sleep(for: .milliseconds(300))
        let stopped = Self.scans(client, on: 4).count
        try await Task.sleep(for: .seconds(1.5))
        #expect(Self.scans(client, on: 4).count == stopped, "no scans after stopRanging")
    }

    @Test func aDeniedAppIsToldDeniedAndNoBeaconCrossesTheSocket() async throws {
        let fixture = try DaemonFixture(sources: Self.sources())
        let client = try await Self.client(fixture, .denied)
        client.send(.request(.startRanging(4, Self.constraint)))
        #expect(await eventually(timeout: .seconds(10)) { Self.failures(client, on: 4) == [.denied] })
        try await Task.sleep(for: .seconds(1.5))
        #expect(Self.scans(client, on: 4).isEmpty)
        #expect(Self.failures(client, on: 4) == [.denied], "told once")
    }

    @Test func reducedAccuracyMakesRangingUnavailable() async throws {
        let fixture = try DaemonFixture(sources: Self.sources())
        let client = try await Self.client(fixture, .authorizedAlways, accuracy: .reducedAccuracy)
        client.send(.request(.startRanging(4, Self.constraint)))
        #expect(await eventually(timeout: .seconds(10)) { Self.failures(client, on: 4) == [.rangingUnavailable] })
        try await Task.sleep(for: .seconds(1.5))
        #expect(Self.scans(client, on: 4).isEmpty)
    }

    @Test func withoutABeaconSourceRangingIsUnavailable() async throws {
        let fixture = try DaemonFixture(sources: [FixedSource(latitude: Self.place.latitude, longitude: Self.place.longitude)])
        let client = try await Self.client(fixture, .authorizedWhenInUse)
        client.send(.request(.startRanging(4, Self.constraint)))
        #expect(await eventually(timeout: .seconds(10)) { Self.failures(client, on: 4) == [.rangingUnavailable] })
        #expect(!DaemonServiceProvider(socketPath: fixture.socketPath).hasBeaconSources,
                "the daemon's welcome says it has no beacon source: isRangingAvailable() is false, as ranging is")
    }

    /// `CLLocationManager` through the daemon: `didRange` on the manager's thread, with `CLBeacon`s.
    @Test func throughCLLocationManagerDidRangeArrivesOnItsThread() async throws {
        let fixture = try DaemonFixture(sources: Self.sources())
        _ = try await Self.client(fixture, .authorizedWhenInUse)
        let keeper = DelegateKeeper()
        let report = await DaemonTemporaryFullAccuracyTests.withManager(socketPath: fixture.socketPath) {
            (box, finish: @escaping @Sendable ([String]) -> Void) in
            let delegate = RangingDelegate(thread: ObjectIdentifier(Thread.current), finish: finish)
            keeper.delegate = delegate
            box.manager.delegate = delegate
            box.manager.startRangingBeacons(satisfying: CLBeaconIdentityConstraint(uuid: Self.uuid, major: 7))
        }
        #expect(report == ["7.1 on the manager's thread"], "\(String(describing: report))")
    }

    /// A beacon condition is satisfied through the daemon, and a restarted daemon restores it.
    @Test func aBeaconConditionIsSatisfiedAndARestartedDaemonRestoresIt() async throws {
        let store = MemoryAuthorizationStore()
        let fences = MemoryFenceStorage()
        let condition = CLMonitor.BeaconIdentityCondition(uuid: Self.uuid, major: 7)
        do {
            let fixture = try DaemonFixture(sources: Self.sources(), store: store) { $0.fenceStorageFactory = { _ in fences } }
            _ = try await Self.client(fixture, .authorizedWhenInUse)
            let monitor = await DaemonMonitorTests.monitor("beacons", through: DaemonServiceProvider(socketPath: fixture.socketPath))
            let events = BeaconMonitorRecorder(monitor.events)
            await monitor.add(condition, identifier: "door")
            #expect(await events.wait { $0.map(\.state) == [.satisfied] }, "\(events.events.map(\.state))")
            await events.stop()
            fixture.daemon.stop()
        }
        let fixture = try DaemonFixture(sources: Self.sources(), store: store) { $0.fenceStorageFactory = { _ in fences } }
        let monitor = await DaemonMonitorTests.monitor("beacons", through: DaemonServiceProvider(socketPath: fixture.socketPath))
        let record = try #require(await monitor.record(for: "door"))
        #expect(record.lastEvent.state == .satisfied)
        let restored = try #require(record.condition as? CLMonitor.BeaconIdentityCondition)
        #expect(restored.uuid == Self.uuid && restored.major == 7 && restored.minor == nil)
    }
}

/// The real-time walk of `DaemonBeaconTests`, in a suite of its own: its half minute of waiting for
/// the exit needs a longer limit than the others.
@Suite(.timeLimit(.minutes(2)))
struct DaemonBeaconWalkTests {
    /// A walk away from a beacon through the daemon, in real time: satisfied while it is heard,
    /// unsatisfied 30 s after the last advertisement. The walk starts at the beacon when the
    /// scanner first scans (when the condition is added) and leaves its 60 m range in 6 s.
    @Test func aBeaconConditionIsSatisfiedThenUnsatisfiedOnAWalkAway() async throws {
        let place = DaemonBeaconTests.place
        let started = Locked<Date?>(nil)
        let beacon = SimulatedBeacon(identity: BeaconIdentity(uuid: DaemonBeaconTests.uuid, major: 7, minor: 1),
                                     measuredPower: -59, latitude: place.latitude, longitude: place.longitude)
        let walker = SimulatedBeaconScanner(beacons: [beacon], device: { now in
            let start = started.withLock { start -> Date in
                if let start { return start }
                start = now
                return now
            }
            return (place.latitude + 10 * max(0, now.timeIntervalSince(start)) / 111_320, place.longitude)
        }, name: "walk away")
        let fixture = try DaemonFixture(sources: [walker])
        _ = try await DaemonBeaconTests.client(fixture, .authorizedWhenInUse)
        let monitor = await DaemonMonitorTests.monitor("walk", through: DaemonServiceProvider(socketPath: fixture.socketPath))
        let events = BeaconMonitorRecorder(monitor.events)
        await monitor.add(CLMonitor.BeaconIdentityCondition(uuid: DaemonBeaconTests.uuid), identifier: "door")
        #expect(await events.wait { $0.map(\.state) == [.satisfied] }, "\(events.events.map(\.state))")
        #expect(await events.wait(seconds: 45) { $0.map(\.state) == [.satisfied, .unsatisfied] }, "\(events.events.map(\.state))")
        let exit = try #require(events.events.last)
        let walked = exit.date.timeIntervalSince(try #require(started.withLock { $0 }))
        #expect(walked > 30 && walked < 40, "left at \(walked) s: 30 s after the last advertisement, heard for at most 6 s")
        await events.stop()
    }
}

/// Keeps a manager's (weakly held) delegate alive for the length of a test.
private final class DelegateKeeper: @unchecked Sendable {
    var delegate: (any CLLocationManagerDelegate)?
}

/// Reports the first scan with beacons (or the first failure) once.
private final class RangingDelegate: NSObject, CLLocationManagerDelegate {
    let thread: ObjectIdentifier
    let finish: @Sendable ([String]) -> Void
    private var finished = false

    init(thread: ObjectIdentifier, finish: @escaping @Sendable ([String]) -> Void) {
        self.thread = thread
        self.finish = finish
    }

    func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        guard !finished, !beacons.isEmpty else { return }
        finished = true
        let place = ObjectIdentifier(Thread.current) == thread ? "on the manager's thread" : "elsewhere"
        finish(beacons.map { "\($0.major.intValue).\($0.minor.intValue) \(place)" })
    }

    func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {
        guard !finished else { return }
        finished = true
        finish(["failed \(String(describing: (error as? CLError)?.code))"])
    }
}

/// Iterates a monitor's events in a task of its own and keeps them.
private final class BeaconMonitorRecorder: Sendable {
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

    func wait(seconds: Int = 15, _ condition: ([CLMonitor.Event]) -> Bool) async -> Bool {
        await eventually(timeout: .seconds(seconds)) { condition(events) }
    }

    func stop() async {
        task.cancel()
        await task.value
    }
}
