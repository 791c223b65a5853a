import CoreLocation
import CoreLocationTesting
import Foundation
import LocationCore
import LocationProtocol
import LocationSources

/// Simulated beacons for the ranging and beacon-monitoring tests: where they are, and a device
/// that stands still near them or walks past them.
enum BeaconTestWorld {
    static let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let otherUUID = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
    static let place = (latitude: 52.52, longitude: 13.405)
    /// Metres per degree of latitude, near enough for placing things tens of metres apart.
    static let metresPerDegree = 111_320.0

    /// `fixed:` at the place, with beacons `UUID,7,1` and `UUID,7,2` there and `UUID,8,1` a few
    /// metres away, and one of another UUID.
    static let spec = "fixed:\(place.latitude),\(place.longitude),5"
        + ";beacon:\(uuid.uuidString),7,1,-59@\(place.latitude + 2 / metresPerDegree),\(place.longitude)"
        + ";beacon:\(uuid.uuidString),7,2,-59@\(place.latitude + 5 / metresPerDegree),\(place.longitude)"
        + ";beacon:\(uuid.uuidString),8,1,-59@\(place.latitude - 4 / metresPerDegree),\(place.longitude)"
        + ";beacon:\(otherUUID.uuidString),1,1,-59@\(place.latitude),\(place.longitude + 3 / metresPerDegree)"

    /// One beacon at the place, and a device walking north through it at `speed` m/s, starting
    /// `start` metres south of it at the harness's epoch.
    static func walkPast(start: Double = 150, speed: Double = 1.4, epoch: Date = VirtualLoop.defaultEpoch) -> [any LocationSource] {
        let beacon = SimulatedBeacon(
            identity: BeaconIdentity(uuid: uuid, major: 7, minor: 1), measuredPower: -59,
            latitude: place.latitude, longitude: place.longitude)
        let scanner = SimulatedBeaconScanner(beacons: [beacon], device: { date in
            let metres = -start + speed * date.timeIntervalSince(epoch)
            return (place.latitude + metres / metresPerDegree, place.longitude)
        }, name: "walk past a beacon")
        return [scanner]
    }
}

/// Records ranging and region callbacks, with the thread each came on.
final class BeaconRecorder: NSObject, CLLocationManagerDelegate {
    var ranged: [(constraint: CLBeaconIdentityConstraint, beacons: [CLBeacon])] = []
    var rangingFailures: [(constraint: CLBeaconIdentityConstraint, code: CLError.Code?)] = []
    var rangedInRegion: [(region: CLBeaconRegion, beacons: [CLBeacon])] = []
    var regionRangingFailures: [(region: CLBeaconRegion, code: CLError.Code?)] = []
    var regionEvents: [String] = []
    var monitoringFailures: [CLError.Code?] = []
    var threads: Set<ObjectIdentifier> = []

    private func note() { threads.insert(ObjectIdentifier(Thread.current)) }

    func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        note()
        ranged.append((beaconConstraint, beacons))
    }

    func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {
        note()
        rangingFailures.append((beaconConstraint, (error as? CLError)?.code))
    }

    func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion) {
        note()
        rangedInRegion.append((region, beacons))
    }

    func locationManager(_ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error) {
        note()
        regionRangingFailures.append((region, (error as? CLError)?.code))
    }

    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) { regionEvents.append("enter \(region.identifier)") }
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) { regionEvents.append("exit \(region.identifier)") }
    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        regionEvents.append("state \(region.identifier) \(state == .inside ? "inside" : state == .outside ? "outside" : "unknown")")
    }
    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
        monitoringFailures.append((error as? CLError)?.code)
    }
}

/// A source that says whether the engine runs it: a beacon scanner's wrapper, for checking that
/// scanning happens only while someone ranges or monitors beacons.
final class RunningProbe: LocationSource {
    let base: any LocationSource
    private let running = Locked(false)
    var isRunning: Bool { running.withLock { $0 } }
    var descriptor: SourceDescriptor { base.descriptor }

    init(_ base: any LocationSource) { self.base = base }

    func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        running.withLock { $0 = true }
        base.start(on: loop, emit: emit)
    }

    func stop() {
        running.withLock { $0 = false }
        base.stop()
    }
}

extension BeaconTestWorld {
    /// A device standing at the place with beacon `UUID,7,1` 2 m away, the scanner behind a probe.
    static func probedScanner() -> (sources: [any LocationSource], probe: RunningProbe) {
        let beacon = SimulatedBeacon(
            identity: BeaconIdentity(uuid: uuid, major: 7, minor: 1), measuredPower: -59,
            latitude: place.latitude + 2 / metresPerDegree, longitude: place.longitude)
        let probe = RunningProbe(SimulatedBeaconScanner(
            beacons: [beacon], device: { _ in (place.latitude, place.longitude) }, name: "probed"))
        return ([FixedSource(latitude: place.latitude, longitude: place.longitude), probe], probe)
    }
}
