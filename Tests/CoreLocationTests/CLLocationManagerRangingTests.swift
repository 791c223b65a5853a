import CoreLocation
import CoreLocationTesting
import Foundation
import LocationProtocol
import LocationSources
import Testing

/// Beacon ranging in-process, with simulated beacons on virtual time: Apple's authorization rules
/// (When In Use or Always with full accuracy), a scan about once a second with every beacon that
/// satisfies the constraint, and `rangingUnavailable` where there is nothing to range with.
@Suite struct CLLocationManagerRangingTests {
    static let constraint = CLBeaconIdentityConstraint(uuid: BeaconTestWorld.uuid, major: 7)

    /// Identities of a scan, as `major.minor`.
    static func identities(_ beacons: [CLBeacon]) -> [String] {
        beacons.map { "\($0.major.intValue).\($0.minor.intValue)" }
    }

    @Test func rangingDeliversTheSatisfyingBeaconsAboutOnceASecondOnTheManagersThread() throws {
        let world = try LocationTestHarness(source: BeaconTestWorld.spec)
        try world.setAuthorization(.authorizedWhenInUse)
        world.run {
            #expect(CLLocationManager.isRangingAvailable())
            #expect(CLLocationManager.isMonitoringAvailable(for: CLBeaconRegion.self))
            let delegate = BeaconRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.startRangingBeacons(satisfying: Self.constraint)
            manager.startRangingBeacons(satisfying: Self.constraint)
            #expect(manager.rangedBeaconConstraints == [Self.constraint])
            world.advance(by: 20)
            #expect((17...21).contains(delegate.ranged.count), "\(delegate.ranged.count) scans in 20 s")
            #expect(delegate.ranged.allSatisfy { $0.constraint == Self.constraint })
            // Major 7 only: 7.1 and 7.2, never 8.1 nor the other UUID.
            let seen = Set(delegate.ranged.flatMap { Self.identities($0.beacons) })
            #expect(seen == ["7.1", "7.2"])
            let last = try? #require(delegate.ranged.last?.beacons.first { $0.minor == 1 })
            #expect(last?.uuid == BeaconTestWorld.uuid)
            #expect((last?.accuracy ?? -1) > 0 && (last?.accuracy ?? 100) < 10, "\(String(describing: last))")
            #expect(delegate.rangingFailures.isEmpty)
            #expect(delegate.threads == [ObjectIdentifier(Thread.current)], "callbacks on the creating thread")

            manager.stopRangingBeacons(satisfying: Self.constraint)
            #expect(manager.rangedBeaconConstraints.isEmpty)
            world.settle()
            let stopped = delegate.ranged.count
            world.advance(by: 5)
            #expect(delegate.ranged.count == stopped, "no scans after stopping")
        }
    }

    @Test func theDeprecatedRegionSpellingsRangeThroughTheirOwnCallbacks() throws {
        let world = try LocationTestHarness(source: BeaconTestWorld.spec)
        try world.setAuthorization(.authorizedAlways)
        world.run {
            let delegate = BeaconRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            let region = CLBeaconRegion(uuid: BeaconTestWorld.uuid, major: 8, identifier: "hall")
            callDeprecated(StartRangingInRegion(manager: manager, region: region))
            #expect(callDeprecated(RangedRegions(manager: manager)).map(\.identifier) == ["hall"])
            world.advance(by: 5)
            #expect(delegate.rangedInRegion.count >= 3)
            #expect(delegate.rangedInRegion.allSatisfy { $0.region.identifier == "hall" })
            #expect(Set(delegate.rangedInRegion.flatMap { Self.identities($0.beacons) }) == ["8.1"])
            #expect(delegate.ranged.isEmpty, "the constraint callback is not called for a region")
            callDeprecated(StopRangingInRegion(manager: manager, region: CLBeaconRegion(uuid: BeaconTestWorld.otherUUID, identifier: "hall")))
            #expect(callDeprecated(RangedRegions(manager: manager)).isEmpty, "stopped by identifier")
        }
    }

    @Test func aDeniedAppIsToldDeniedAndGetsNoBeaconsUntilItIsAuthorized() throws {
        let world = try LocationTestHarness(source: BeaconTestWorld.spec)
        try world.setAuthorization(.denied)
        world.run {
            let delegate = BeaconRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.startRangingBeacons(satisfying: Self.constraint)
            world.advance(by: 10)
            #expect(delegate.ranged.isEmpty)
            #expect(delegate.rangingFailures.map(\.code) == [.denied], "once, not every second")
            #expect(delegate.rangingFailures.first?.constraint == Self.constraint)

            // The user allows it in the settings: the constraint, still ranged, starts reporting.
            try? world.setAuthorization(.authorizedWhenInUse)
            world.advance(by: 5)
            #expect(delegate.ranged.count >= 3)
            // And revokes it: ranging stops at once.
            try? world.setAuthorization(.denied)
            let revoked = delegate.ranged.count
            world.advance(by: 5)
            #expect(delegate.ranged.count == revoked, "no beacon after revocation")
            #expect(delegate.rangingFailures.map(\.code) == [.denied, .denied])
        }
    }

    @Test func anUndeterminedAppFailsWithDenied() throws {
        let world = try LocationTestHarness(source: BeaconTestWorld.spec, answer: nil)
        world.run {
            let delegate = BeaconRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.startRangingBeacons(satisfying: Self.constraint)
            world.advance(by: 3)
            #expect(delegate.ranged.isEmpty)
            #expect(delegate.rangingFailures.map(\.code) == [.denied])
        }
    }

    @Test func reducedAccuracyMakesRangingUnavailable() throws {
        let world = try LocationTestHarness(source: BeaconTestWorld.spec)
        try world.setAuthorization(.authorizedAlways, accuracy: .reducedAccuracy)
        world.run {
            let delegate = BeaconRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            let region = CLBeaconRegion(uuid: BeaconTestWorld.uuid, identifier: "all")
            manager.startRangingBeacons(satisfying: Self.constraint)
            callDeprecated(StartRangingInRegion(manager: manager, region: region))
            world.advance(by: 5)
            #expect(delegate.ranged.isEmpty && delegate.rangedInRegion.isEmpty)
            #expect(delegate.rangingFailures.map(\.code) == [.rangingUnavailable])
            #expect(delegate.regionRangingFailures.map(\.code) == [.rangingUnavailable])
            #expect(delegate.regionRangingFailures.first?.region.identifier == "all")

            try? world.setAuthorization(.authorizedAlways, accuracy: .fullAccuracy)
            world.advance(by: 3)
            #expect(!delegate.ranged.isEmpty && !delegate.rangedInRegion.isEmpty, "full accuracy ranges")
        }
    }

    @Test func locationServicesOffMakesRangingUnavailable() throws {
        let world = try LocationTestHarness(source: BeaconTestWorld.spec)
        try world.setAuthorization(.authorizedWhenInUse)
        try world.setLocationServicesEnabled(false)
        world.run {
            let delegate = BeaconRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.startRangingBeacons(satisfying: Self.constraint)
            world.advance(by: 3)
            #expect(delegate.ranged.isEmpty)
            #expect(delegate.rangingFailures.map(\.code) == [.rangingUnavailable])
        }
    }

    @Test func withoutABeaconSourceRangingIsUnavailable() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405")
        try world.setAuthorization(.authorizedWhenInUse)
        world.run {
            #expect(!CLLocationManager.isRangingAvailable())
            #expect(!CLLocationManager.isMonitoringAvailable(for: CLBeaconRegion.self))
            #expect(CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self))
            let delegate = BeaconRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.startRangingBeacons(satisfying: Self.constraint)
            world.advance(by: 3)
            #expect(delegate.ranged.isEmpty)
            #expect(delegate.rangingFailures.map(\.code) == [.rangingUnavailable])
            #expect(manager.rangedBeaconConstraints == [Self.constraint], "still ranged, as Apple keeps it")
        }
    }

    @Test func scanningRunsOnlyWhileSomeoneRanges() throws {
        let (sources, probe) = BeaconTestWorld.probedScanner()
        let world = LocationTestHarness(sources: sources)
        try world.setAuthorization(.authorizedWhenInUse)
        world.run {
            let manager = CLLocationManager()
            let delegate = BeaconRecorder()
            manager.delegate = delegate
            world.advance(by: 3)
            #expect(!probe.isRunning)
            manager.startRangingBeacons(satisfying: Self.constraint)
            world.advance(by: 3)
            #expect(probe.isRunning)
            manager.stopRangingBeacons(satisfying: Self.constraint)
            world.advance(by: 3)
            #expect(!probe.isRunning)
            // Revocation stops it too.
            manager.startRangingBeacons(satisfying: Self.constraint)
            world.advance(by: 3)
            #expect(probe.isRunning)
            try? world.setAuthorization(.denied)
            world.advance(by: 1)
            #expect(!probe.isRunning)
        }
    }
}

private struct StartRangingInRegion: DeprecatedAPICall {
    let manager: CLLocationManager
    let region: CLBeaconRegion
    @available(*, deprecated)
    func call() { manager.startRangingBeacons(in: region) }
}

private struct StopRangingInRegion: DeprecatedAPICall {
    let manager: CLLocationManager
    let region: CLBeaconRegion
    @available(*, deprecated)
    func call() { manager.stopRangingBeacons(in: region) }
}

private struct RangedRegions: DeprecatedAPICall {
    let manager: CLLocationManager
    @available(*, deprecated)
    func call() -> Set<CLRegion> { manager.rangedRegions }
}
