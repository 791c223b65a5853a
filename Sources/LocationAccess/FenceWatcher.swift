import Foundation
import LocationGeofencing
import LocationProtocol

/// The fences being watched and their states, keyed by the keeper's addresses: the keeper's view
/// of `LocationGeofencing`'s evaluator (one spatial index over every app's circles).
///
/// A fix counts as inside a fence only when its whole uncertainty is inside the boundary, and as
/// outside likewise (`FenceJudge`), so noisy fixes near a boundary never flap.
struct FenceWatcher {
    struct Transition {
        var address: FenceKeeper.Address
        var state: FenceState
        /// When the boundary was crossed, as the fixes around it put it; nil when not seen.
        var crossedAt: Date?
    }

    private let evaluator = GeofenceEvaluator()
    private var keys: [FenceKeeper.Address: FenceKey] = [:]
    private var addresses: [FenceKey: FenceKeeper.Address] = [:]
    let demand = FenceDemand()

    var isEmpty: Bool { keys.isEmpty }
    func contains(_ address: FenceKeeper.Address) -> Bool { keys[address] != nil }

    mutating func insert(_ address: FenceKeeper.Address, latitude: Double, longitude: Double, radius: Double, state: FenceState) {
        let circle = FenceCircle(latitude: latitude, longitude: longitude, radius: radius)
        if let key = keys[address] {
            // Same circle and state: nothing to restart.
            if evaluator.circle(key) == circle, evaluator.state(of: key) == state { return }
            evaluator.replace(key, with: circle, assuming: state)
            return
        }
        guard let key = evaluator.add(circle, assuming: state) else { return }
        keys[address] = key
        addresses[key] = address
    }

    mutating func remove(_ address: FenceKeeper.Address) {
        guard let key = keys.removeValue(forKey: address) else { return }
        addresses[key] = nil
        evaluator.remove(key)
    }

    /// The fences whose state `fix` changes, in a stable order.
    mutating func evaluate(_ fix: Fix) -> [Transition] {
        evaluator.evaluate(fix).compactMap { change in
            addresses[change.key].map { Transition(address: $0, state: change.to, crossedAt: change.crossedAt) }
        }.sorted { ($0.address.app, $0.address.group, $0.address.identifier) < ($1.address.app, $1.address.group, $1.address.identifier) }
    }

    func nearestBoundaryDistance(latitude: Double, longitude: Double) -> Double? {
        evaluator.nearestBoundaryDistance(latitude: latitude, longitude: longitude, limit: demand.searchLimit)
    }

    /// The accuracy that can still decide the nearest boundary from here: coarse far from every
    /// fence, precise near one. Rounded down to a power of two, so that the engine's request
    /// changes when the device has come twice as close, not with every fix.
    func requiredAccuracy(near latitude: Double, _ longitude: Double) -> Double {
        let exact = demand.requiredAccuracy(boundaryDistance: nearestBoundaryDistance(latitude: latitude, longitude: longitude))
        guard exact > demand.precise else { return demand.precise }
        return max(demand.precise, min(demand.coarsest, exp2(floor(log2(exact)))))
    }
}
