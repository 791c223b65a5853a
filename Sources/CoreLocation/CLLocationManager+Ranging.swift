import Foundation
import LocationProtocol

/// Beacon ranging's bookkeeping and events (the API is in the class body, `open` as Apple's).
///
/// Each constraint or region the manager ranges is one ranging stream of its connection; the
/// service ranges it while the app is authorized with full accuracy and reports a scan about once
/// a second, or why it cannot.
extension CLLocationManager {
    /// What a ranging stream ranges: a constraint (`startRangingBeacons(satisfying:)`, reported
    /// through `didRange`) or a beacon region (the deprecated `startRangingBeacons(in:)`, reported
    /// through `didRangeBeacons`).
    enum RangingTarget {
        case constraint(CLBeaconIdentityConstraint)
        case region(CLBeaconRegion)
    }

    /// A manager's ranging streams.
    struct RangingState {
        var constraints: [CLBeaconIdentityConstraint: StreamID] = [:]
        /// Beacon regions by identifier: a region with the identifier of one ranged replaces it.
        var regions: [String: (region: CLBeaconRegion, stream: StreamID)] = [:]
        var targets: [StreamID: RangingTarget] = [:]
    }

    func startRanging(_ target: RangingTarget) {
        let constraint: CLBeaconIdentityConstraint
        switch target {
        case .constraint(let ranged):
            guard ranging.constraints[ranged] == nil else { return }
            constraint = ranged
        case .region(let region):
            if let existing = ranging.regions[region.identifier] { stopRangingStream(existing.stream) }
            constraint = region.beaconIdentityConstraint
        }
        let stream = nextStreamID()
        switch target {
        case .constraint(let ranged): ranging.constraints[ranged] = stream
        case .region(let region): ranging.regions[region.identifier] = (region.copy() as? CLBeaconRegion ?? region, stream)
        }
        ranging.targets[stream] = target
        connection?.send(.startRanging(stream, BeaconConstraint(constraint)))
    }

    func stopRanging(constraint: CLBeaconIdentityConstraint) {
        guard let stream = ranging.constraints.removeValue(forKey: constraint) else { return }
        stopRangingStream(stream)
    }

    func stopRanging(regionIdentifier identifier: String) {
        guard let entry = ranging.regions.removeValue(forKey: identifier) else { return }
        stopRangingStream(entry.stream)
    }

    private func stopRangingStream(_ stream: StreamID) {
        ranging.targets[stream] = nil
        connection?.send(.stopRanging(stream))
    }

    /// Runs on the callback context: a scan of one of this manager's ranging streams.
    func deliverRanged(_ beacons: [CLBeacon], stream: StreamID) {
        switch ranging.targets[stream] {
        case .constraint(let constraint)?:
            delegate?.locationManager(self, didRange: beacons, satisfying: constraint)
        case .region(let region)?:
            delegate?.locationManager(self, didRangeBeacons: beacons, in: region)
        case nil:
            break
        }
    }

    /// Runs on the callback context: a ranging stream cannot range (it stays ranged, and reports
    /// scans again when it can).
    func deliverRangingFailure(_ code: CLError.Code, stream: StreamID) {
        switch ranging.targets[stream] {
        case .constraint(let constraint)?:
            delegate?.locationManager(self, didFailRangingFor: constraint, error: CLError(code))
        case .region(let region)?:
            delegate?.locationManager(self, rangingBeaconsDidFailFor: region, withError: CLError(code))
        case nil:
            break
        }
    }

    func isRangingStream(_ stream: StreamID) -> Bool { ranging.targets[stream] != nil }
}

extension BeaconConstraint {
    init(_ constraint: CLBeaconIdentityConstraint) {
        self.init(uuid: constraint.uuid, major: constraint.major, minor: constraint.minor)
    }
}

extension CLBeacon {
    /// The beacon as the service ranged it.
    convenience init(ranged beacon: RangedBeacon) {
        self.init(
            uuid: beacon.identity.uuid, major: beacon.identity.major, minor: beacon.identity.minor,
            proximity: CLProximity(rawValue: beacon.proximity.rawValue) ?? .unknown, accuracy: beacon.accuracy,
            rssi: beacon.rssi, timestamp: beacon.timestamp)
    }
}
