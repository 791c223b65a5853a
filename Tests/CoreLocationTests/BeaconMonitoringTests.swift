import CoreLocation
import CoreLocationTesting
import Foundation
import LocationAccess
import LocationCore
import LocationProtocol
import LocationSources
import Testing

/// Beacon regions and `CLMonitor.BeaconIdentityCondition` in-process, with a simulated walk past a
/// beacon on virtual time: satisfied when a satisfying beacon is heard, unsatisfied 30 s after the
/// last one (`BeaconFenceWatcher.exitDelay`), kept across relaunches, and refused without full
/// accuracy or authorization.
@Suite struct BeaconMonitoringTests {
    static var region: CLBeaconRegion { CLBeaconRegion(uuid: BeaconTestWorld.uuid, major: 7, identifier: "door") }
    static let condition = CLMonitor.BeaconIdentityCondition(uuid: BeaconTestWorld.uuid, major: 7)

    /// The walk: 150 m south of the beacon at 1.4 m/s; heard from about 60 m on each side.
    static func walkingWorld(authorization: CLAuthorizationStatus = .authorizedWhenInUse,
                             accuracy: CLAccuracyAuthorization = .fullAccuracy,
                             fenceStorage: any FenceStorage = MemoryFenceStorage()) throws -> LocationTestHarness {
        let world = LocationTestHarness(sources: BeaconTestWorld.walkPast(), fenceStorage: fenceStorage)
        try world.setAuthorization(authorization, accuracy: accuracy)
        return world
    }

    @Test func aBeaconRegionIsEnteredAndLeftOnAWalkPastItsBeacon() throws {
        let world = try Self.walkingWorld()
        world.run {
            let delegate = BeaconRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            callDeprecated(StartMonitoringRegion(manager: manager, region: Self.region))
            // Heard from ~60 m before the beacon: 90 m of walking at 1.4 m/s is ~64 s. Until then,
            // 30 s of silence first determine the state as outside.
            world.advance(by: 50)
            #expect(delegate.regionEvents == ["state door outside"], "\(delegate.regionEvents)")
            world.advance(by: 40)
            #expect(delegate.regionEvents == ["state door outside", "enter door", "state door inside"], "\(delegate.regionEvents)")
            callDeprecated(RequestRegionState(manager: manager, region: Self.region))
            world.settle()
            #expect(delegate.regionEvents.last == "state door inside", "requestState answers the state now")
            // Out of range ~60 m past the beacon (~150 s), then 30 s of silence.
            world.advance(by: 70)
            #expect(!delegate.regionEvents.contains("exit door"), "still within 30 s of the last advertisement")
            world.advance(by: 60)
            #expect(delegate.regionEvents.suffix(2) == ["exit door", "state door outside"], "\(delegate.regionEvents)")
            #expect(delegate.monitoringFailures.isEmpty)
        }
    }

    @Test func aBeaconConditionIsSatisfiedAndThenUnsatisfiedAndKeptAcrossARelaunch() async throws {
        let storage = MemoryFenceStorage()
        let world = try Self.walkingWorld(authorization: .authorizedAlways, fenceStorage: storage)
        do {
            let monitor = try await Self.open("walk", in: world)
            let recorder = MonitorEventRecorder(monitor.events)
            await monitor.add(Self.condition, identifier: "door")
            world.advance(by: 100)
            #expect(await recorder.wait { $0.map(\.state) == [.unsatisfied, .satisfied] }, "\(recorder.events.map(\.state))")
            let entry = try #require(recorder.events.last)
            #expect(!entry.conditionUnsupported && !entry.accuracyLimited)
            await recorder.stop()
        }
        // The app is gone (Always: still watched); the exit happens meanwhile.
        world.advance(by: 120)
        // A relaunch (a new service on the same storage): the condition is back, unsatisfied.
        let relaunched = LocationTestHarness(sources: BeaconTestWorld.walkPast(), fenceStorage: storage)
        try relaunched.setAuthorization(.authorizedAlways)
        let monitor = try await Self.open("walk", in: relaunched)
        let record = try #require(await monitor.record(for: "door"))
        #expect(record.lastEvent.state == .unsatisfied)
        let restored = try #require(record.condition as? CLMonitor.BeaconIdentityCondition)
        #expect(restored.uuid == BeaconTestWorld.uuid && restored.major == 7 && restored.minor == nil)
    }

    @Test func reducedAccuracyLeavesBeaconConditionsAccuracyLimited() async throws {
        let world = try Self.walkingWorld(accuracy: .reducedAccuracy)
        let monitor = try await Self.open("limited", in: world)
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(Self.condition, identifier: "door")
        world.advance(by: 100)
        let record = try #require(await monitor.record(for: "door"))
        #expect(record.lastEvent.accuracyLimited)
        #expect(record.lastEvent.state != .satisfied, "never judged without full accuracy")
        #expect(!recorder.events.contains { $0.state == .satisfied })
        await recorder.stop()
    }

    @Test func aDeniedAppsBeaconRegionFailsWithRegionMonitoringDenied() throws {
        let world = try Self.walkingWorld(authorization: .denied)
        world.run {
            let delegate = BeaconRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            callDeprecated(StartMonitoringRegion(manager: manager, region: Self.region))
            world.advance(by: 100)
            #expect(delegate.monitoringFailures == [.regionMonitoringDenied])
            #expect(!delegate.regionEvents.contains("enter door"))
        }
    }

    @Test func withoutABeaconSourceBeaconRegionsAndConditionsAreUnsupported() async throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405")
        try world.setAuthorization(.authorizedAlways)
        world.run {
            let delegate = BeaconRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            callDeprecated(StartMonitoringRegion(manager: manager, region: Self.region))
            world.advance(by: 2)
            #expect(delegate.monitoringFailures == [.regionMonitoringFailure])
        }
        let monitor = try await Self.open("none", in: world)
        await monitor.add(Self.condition, identifier: "door")
        world.advance(by: 2)
        let record = try #require(await monitor.record(for: "door"))
        #expect(record.lastEvent.state == .unmonitored && record.lastEvent.conditionUnsupported)
    }

    @Test func scanningRunsOnlyWhileABeaconFenceIsWatched() throws {
        let (sources, probe) = BeaconTestWorld.probedScanner()
        let world = LocationTestHarness(sources: sources)
        try world.setAuthorization(.authorizedWhenInUse)
        world.run {
            let delegate = BeaconRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            callDeprecated(StartMonitoringRegion(manager: manager, region: Self.region))
            world.advance(by: 3)
            #expect(probe.isRunning)
            #expect(delegate.regionEvents == ["state door inside"], "\(delegate.regionEvents)")
            callDeprecated(StopMonitoringRegion(manager: manager, region: Self.region))
            world.advance(by: 3)
            #expect(!probe.isRunning, "no beacon fence left: the scanner stops")
        }
    }

    /// Conditions kept unsupported by a service without a beacon source are watched by one with it.
    @Test func aConditionKeptWithoutABeaconSourceIsWatchedOnceOneIsConfigured() async throws {
        let storage = MemoryFenceStorage()
        let before = LocationTestHarness(sources: [FixedSource(latitude: BeaconTestWorld.place.latitude,
                                                               longitude: BeaconTestWorld.place.longitude)],
                                         fenceStorage: storage)
        try before.setAuthorization(.authorizedAlways)
        let unsupported = try await Self.open("later", in: before)
        await unsupported.add(Self.condition, identifier: "door")
        before.advance(by: 2)
        #expect(await unsupported.record(for: "door")?.lastEvent.state == .unmonitored)

        let after = try Self.walkingWorld(authorization: .authorizedAlways, fenceStorage: storage)
        let monitor = try await Self.open("later", in: after)
        let recorder = MonitorEventRecorder(monitor.events)
        after.advance(by: 100)
        #expect(await recorder.wait { $0.map(\.state) == [.unsatisfied, .satisfied] }, "\(recorder.events.map(\.state))")
        await recorder.stop()
    }

    /// Reviving kept conditions respects the app's limit: beyond it they stay unmonitored.
    @Test func keptConditionsAreWatchedOnlyWithinTheLimit() async throws {
        let storage = MemoryFenceStorage()
        let before = LocationTestHarness(sources: [FixedSource(latitude: BeaconTestWorld.place.latitude,
                                                               longitude: BeaconTestWorld.place.longitude)],
                                         fenceStorage: storage)
        try before.setAuthorization(.authorizedAlways)
        let unsupported = try await Self.open("limited", in: before)
        await unsupported.add(Self.condition, identifier: "first")
        await unsupported.add(Self.condition, identifier: "second")
        before.advance(by: 2)

        let after = LocationTestHarness(sources: BeaconTestWorld.walkPast(), fenceStorage: storage,
                                        fenceLimits: FenceLimits(fencesPerApp: 1))
        try after.setAuthorization(.authorizedAlways)
        let monitor = try await Self.open("limited", in: after)
        #expect(await monitor.record(for: "first")?.lastEvent.state == .unknown)
        #expect(await monitor.record(for: "second")?.lastEvent.state == .unmonitored)
    }

    /// A monitor in `world`, opened while the world's loop runs.
    static func open(_ name: String, in world: LocationTestHarness) async throws -> CLMonitor {
        let monitor = await world.run {
            let task = Task { () async throws -> CLMonitor in await CLMonitor(name) }
            return await drive(world, until: task)
        }
        return try #require(monitor)
    }
}

private struct StartMonitoringRegion: DeprecatedAPICall {
    let manager: CLLocationManager
    let region: CLRegion
    @available(*, deprecated)
    func call() { manager.startMonitoring(for: region) }
}

private struct RequestRegionState: DeprecatedAPICall {
    let manager: CLLocationManager
    let region: CLRegion
    @available(*, deprecated)
    func call() { manager.requestState(for: region) }
}

private struct StopMonitoringRegion: DeprecatedAPICall {
    let manager: CLLocationManager
    let region: CLRegion
    @available(*, deprecated)
    func call() { manager.stopMonitoring(for: region) }
}
