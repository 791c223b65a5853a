import Foundation
import LocationCore
import LocationGeodesy
import LocationProtocol

/// Tracks when the device last moved, for automatic pausing and live-update stationarity.
///
/// The device "moved" when a fix lies outside the stationary radius around the anchor (the fix at
/// the last movement); the radius grows with the fixes' own uncertainty so GPS jitter is not motion.
struct MovementDetector {
    private(set) var anchor: Fix?
    private(set) var lastMovement: Date?
    let radius: Double

    init(radius: Double) { self.radius = radius }

    /// Feeds a fix; returns true when it counts as movement.
    @discardableResult
    mutating func observe(_ fix: Fix) -> Bool {
        guard let anchor else {
            self.anchor = fix
            lastMovement = fix.timestamp
            return true
        }
        let moved = Geodesic.wgs84.distance(
            latitude1: anchor.latitude, longitude1: anchor.longitude,
            latitude2: fix.latitude, longitude2: fix.longitude)
        let tolerance = max(radius, 2 * max(fix.horizontalAccuracy, anchor.horizontalAccuracy))
        if moved > tolerance {
            self.anchor = fix
            lastMovement = fix.timestamp
            return true
        }
        return false
    }

    /// Seconds since the last movement, measured at `now`.
    func stillFor(at now: Date) -> TimeInterval {
        guard let lastMovement else { return 0 }
        return now.timeIntervalSince(lastMovement)
    }
}
