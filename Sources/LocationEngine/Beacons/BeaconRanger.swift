import Foundation
import LocationProtocol

/// Turns one device's beacon sightings into ranged beacons, once per ranging interval (about a
/// second): a smoothed received strength per beacon (`RSSISmoothing`), its distance by the
/// log-distance model with the beacon's advertised measured power (`BeaconPathLoss`, exponent 2),
/// and a proximity that does not flicker (`ProximityBands`: hysteresis, a dwell, one band at a time).
///
/// A beacon missing from a scan is not dropped: as Core Location does, it is listed with `rssi` 0
/// while its last distance and proximity stand; after `unknownAfter` seconds unheard its proximity
/// is unknown and its accuracy −1; after `dropAfter` it is gone.
///
/// The smoothing was chosen on the same simulated data (`BeaconRangerEvaluation`, printed by
/// `corelocation-bench beacons`: four passes 1 m beside a beacon at 1.4 m/s and five minutes standing
/// 3 m from it, σ = 4 dB, 10% of advertisements lost, 3 s gaps, 20 seeds; a pass truly changes
/// proximity twice, standing never):
///
/// | Smoothing | median distance error (≤ 15 m) | proximity changes per pass | changes standing still | lag entering near | immediate↔far |
/// |---|---|---|---|---|---|
/// | running average, 20 s | 7.74 m | 0.10 | 1.70 | never near | 0 |
/// | running average, 5 s | 2.62 m | 1.98 | 1.95 | 2.5 s | 0 |
/// | exponential, weight 0.3 | 2.85 m | 1.57 | 1.75 | 2.5 s | 0 |
/// | exponential, weight 0.5 | 1.79 m | 1.95 | 1.95 | 1.8 s | 0 |
/// | Kalman, q 1.5 dB²/s | 3.00 m | 1.48 | 1.70 | 2.7 s | 0 |
/// | Kalman, q 4 dB²/s | 2.05 m | 1.95 | 1.80 | 2.1 s | 0 |
/// | Kalman, q 8 dB²/s | 1.75 m | 2.00 | 2.05 | 1.8 s | 0 |
/// | Kalman, q 16 dB²/s | 1.66 m | 2.02 | 2.45 | 1.5 s | 0 |
///
/// The Kalman filter with q = 8 dB²/s is the default: the lowest error of all but the jumpier q = 16,
/// the true two changes a pass, and among the shortest lags. The exponential average with weight
/// 0.5 comes close on this data, but its weight is per advertisement, so its time constant changes
/// with the advertising and scanning rates (1–10 a second on real adapters) and it cannot tell a
/// fresh estimate from a stale one after a gap; the Kalman filter's noise is per second and its
/// variance grows while a beacon is unheard. Long averages (20 s, as Android Beacon Library does)
/// lag so much that a passer-by is never near. With the far boundary at 4.5 m instead of 6 m the
/// same filter changed 7.75 times per five minutes standing at 3 m; a dwell of 3 rangings instead of
/// 2 barely helped at 6 m (1.80) and missed near on some passes (1.75 changes a pass).
///
/// A pure value, confined to its owner (the engine's loop).
public struct BeaconRanger: Sendable {
    public struct Parameters: Sendable, Equatable {
        public var smoothing: RSSISmoothing = .kalman(processNoise: 8, measurementNoise: 16)
        public var pathLossExponent = BeaconPathLoss.exponent
        public var bands = ProximityBands()
        /// Unheard this long: proximity unknown, accuracy −1.
        public var unknownAfter: TimeInterval = 5
        /// Unheard this long: no longer listed.
        public var dropAfter: TimeInterval = 10

        public init() {}

        public init(smoothing: RSSISmoothing) { self.smoothing = smoothing }
    }

    private struct Tracked: Sendable {
        var filter: RSSIFilter
        var measuredPower: Int
        var lastHeard: Date
        var heardSinceRanging = true
        var proximity = ProximityTracker()
        var distance: Double?
    }

    public let parameters: Parameters
    private var tracked: [BeaconIdentity: Tracked] = [:]

    public init(parameters: Parameters = Parameters()) { self.parameters = parameters }

    /// Beacons heard and not yet dropped.
    public var trackedCount: Int { tracked.count }

    /// One advertisement. A strength of 0 dBm or more is no measurement (0 is Core Location's "not
    /// heard", 127 BlueZ's "unavailable") and is ignored.
    public mutating func observe(_ sighting: BeaconSighting) {
        guard sighting.rssi < 0 else { return }
        let rssi = Double(sighting.rssi)
        if var beacon = tracked[sighting.identity] {
            beacon.filter.observe(rssi, at: sighting.timestamp)
            beacon.measuredPower = sighting.measuredPower
            beacon.lastHeard = max(beacon.lastHeard, sighting.timestamp)
            beacon.heardSinceRanging = true
            tracked[sighting.identity] = beacon
        } else {
            var filter = RSSIFilter(parameters.smoothing)
            filter.observe(rssi, at: sighting.timestamp)
            tracked[sighting.identity] = Tracked(filter: filter, measuredPower: sighting.measuredPower, lastHeard: sighting.timestamp)
        }
    }

    /// The ranging at `now`: every tracked beacon, sorted by identity.
    public mutating func range(at now: Date) -> [RangedBeacon] {
        var ranged: [RangedBeacon] = []
        ranged.reserveCapacity(tracked.count)
        for identity in tracked.keys.sorted() {
            guard var beacon = tracked[identity] else { continue }
            let unheard = now.timeIntervalSince(beacon.lastHeard)
            if unheard >= parameters.dropAfter {
                tracked[identity] = nil
                continue
            }
            var rssi = 0
            if unheard >= parameters.unknownAfter {
                beacon.distance = nil
                _ = beacon.proximity.update(distance: nil, bands: parameters.bands)
            } else if beacon.heardSinceRanging, let estimate = beacon.filter.estimate {
                rssi = Int(estimate.rounded())
                beacon.distance = BeaconPathLoss.distance(rssi: estimate, measuredPower: beacon.measuredPower,
                                                          exponent: parameters.pathLossExponent)
                _ = beacon.proximity.update(distance: beacon.distance, bands: parameters.bands)
            }
            beacon.heardSinceRanging = false
            tracked[identity] = beacon
            ranged.append(RangedBeacon(identity: identity, proximity: beacon.proximity.current,
                                       accuracy: beacon.distance ?? -1, rssi: rssi, timestamp: beacon.lastHeard))
        }
        return ranged
    }

    /// Forgets every beacon (scanning stopped: what was heard says nothing about the next scan).
    public mutating func reset() { tracked = [:] }
}
