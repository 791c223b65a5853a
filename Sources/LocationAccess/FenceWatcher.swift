import Foundation
import LocationGeodesy
import LocationProtocol

/// The fences being watched and their states, keyed by the keeper's addresses.
///
/// Decides like Core Location users expect from a careful receiver: a fix counts as inside only
/// when its whole uncertainty is inside the boundary, and as outside likewise, so noisy fixes
/// near a boundary never flap.
struct FenceWatcher {
    struct Transition {
        var address: FenceKeeper.Address
        var state: FenceState
        /// A decision the previous fix made that differs from `state`, waiting for confirmation.
        var candidate: FenceState?
    }

    private struct Entry {
        var latitude: Double
        var longitude: Double
        var radius: Double
        var state: FenceState
        /// A decision the previous fix made that differs from `state`, waiting for confirmation.
        var candidate: FenceState?
    }

    /// How many horizontal accuracies a fix must be clear of a boundary to count.
    static let confidence = 3.0

    private var entries: [FenceKeeper.Address: Entry] = [:]

    var isEmpty: Bool { entries.isEmpty }
    func contains(_ address: FenceKeeper.Address) -> Bool { entries[address] != nil }

    mutating func insert(_ address: FenceKeeper.Address, latitude: Double, longitude: Double, radius: Double, state: FenceState) {
        entries[address] = Entry(latitude: latitude, longitude: longitude, radius: radius, state: state)
    }

    mutating func remove(_ address: FenceKeeper.Address) { entries[address] = nil }

    mutating func evaluate(_ fix: Fix) -> [Transition] {
        guard fix.horizontalAccuracy > 0 else { return [] }
        let margin = Self.confidence * fix.horizontalAccuracy
        var transitions: [Transition] = []
        for (address, entry) in entries {
            let distance = Geodesic.wgs84.distance(
                latitude1: fix.latitude, longitude1: fix.longitude, latitude2: entry.latitude, longitude2: entry.longitude)
            let decided: FenceState? = distance + margin <= entry.radius ? .inside : (distance - margin >= entry.radius ? .outside : nil)
            guard let decided, decided != entry.state else {
                entries[address]?.candidate = nil
                continue
            }
            // One fix beyond the margin can be an outlier; two in a row are a crossing.
            guard entry.candidate == decided || entry.state == .unknown else {
                entries[address]?.candidate = decided
                continue
            }
            entries[address]?.candidate = nil
            entries[address]?.state = decided
            transitions.append(Transition(address: address, state: decided))
        }
        return transitions.sorted { ($0.address.app, $0.address.group, $0.address.identifier) < ($1.address.app, $1.address.group, $1.address.identifier) }
    }

    func nearestBoundaryDistance(latitude: Double, longitude: Double) -> Double? {
        entries.values.map {
            abs(Geodesic.wgs84.distance(latitude1: latitude, longitude1: longitude, latitude2: $0.latitude, longitude2: $0.longitude) - $0.radius)
        }.min()
    }
}

/// The accuracy fences need from the engine: enough to decide the nearest boundary.
enum FenceDemandPolicy {
    static let precise = 5.0
    static let coarsest = 3000.0

    static func requiredAccuracy(boundaryDistance: Double?) -> Double {
        guard let boundaryDistance else { return precise }
        return min(max(boundaryDistance / (FenceWatcher.confidence + 1), precise), coarsest)
    }
}
