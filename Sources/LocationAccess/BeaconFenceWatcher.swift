import Foundation
import LocationProtocol

/// The beacon fences being watched and their states, keyed by the keeper's addresses: the beacon
/// counterpart of ``FenceWatcher``, judged from the engine's ranging scans.
///
/// A fence is satisfied (inside) as soon as a beacon satisfying its constraint is heard, and
/// unsatisfied (outside) once none has been heard for ``exitDelay`` — Apple's devices likewise
/// report leaving a beacon region about half a minute after its last advertisement, so a beacon
/// missed for a few scans (a body in the way, a slow advertiser) does not make the region flap.
/// Silence counts only while scanning runs: after the scanner was unavailable, or when a fence is
/// first watched, a full ``exitDelay`` of listening must pass before a fence is judged outside.
struct BeaconFenceWatcher {
    /// How long no satisfying beacon must be heard before a fence counts as outside.
    static let exitDelay: TimeInterval = 30

    struct Transition: Equatable {
        var address: FenceKeeper.Address
        var state: FenceState
        /// When the decision's evidence dates from: the advertisement heard for an entry, the end
        /// of the silence for an exit.
        var date: Date
    }

    private struct Watch {
        var constraint: BeaconConstraint
        var state: FenceState
        /// The newest advertisement of a satisfying beacon.
        var lastHeard: Date?
        /// Since when the scanner has listened for this fence without interruption.
        var listeningSince: Date
    }

    private var watches: [FenceKeeper.Address: Watch] = [:]
    /// Scanning stopped (the engine said it cannot scan): the next scan starts listening afresh.
    private var interrupted = false

    var isEmpty: Bool { watches.isEmpty }
    func contains(_ address: FenceKeeper.Address) -> Bool { watches[address] != nil }

    /// Every distinct constraint watched, in a stable order (what the engine is asked to scan for).
    var constraints: [BeaconConstraint] {
        Set(watches.values.map(\.constraint)).sorted(by: Self.order)
    }

    /// UUID, then major, then minor, a wildcard before any value.
    private static func order(_ a: BeaconConstraint, _ b: BeaconConstraint) -> Bool {
        if a.uuid != b.uuid { return a.uuid.uuidString < b.uuid.uuidString }
        let majors: (Int, Int) = (a.major.map(Int.init) ?? -1, b.major.map(Int.init) ?? -1)
        if majors.0 != majors.1 { return majors.0 < majors.1 }
        let minors: (Int, Int) = (a.minor.map(Int.init) ?? -1, b.minor.map(Int.init) ?? -1)
        return minors.0 < minors.1
    }

    /// Watches a fence from `state`; a fence already watched with the same constraint and state
    /// keeps what it has heard.
    mutating func insert(_ address: FenceKeeper.Address, constraint: BeaconConstraint, state: FenceState, now: Date) {
        if let existing = watches[address], existing.constraint == constraint, existing.state == state { return }
        watches[address] = Watch(constraint: constraint, state: state, lastHeard: nil, listeningSince: now)
    }

    mutating func remove(_ address: FenceKeeper.Address) {
        watches[address] = nil
    }

    /// The scanner cannot scan: silence from now on says nothing about where the device is.
    mutating func scanningInterrupted() {
        interrupted = true
    }

    /// The fences whose state a scan at `now` changes, in a stable order.
    mutating func evaluate(_ beacons: [RangedBeacon], now: Date) -> [Transition] {
        if interrupted {
            interrupted = false
            for address in watches.keys { watches[address]?.listeningSince = now }
        }
        var transitions: [Transition] = []
        for address in watches.keys.sorted(by: Self.order) {
            guard var watch = watches[address] else { continue }
            // A beacon's timestamp is when it was last heard; one in the future is taken as now.
            let heard = beacons.filter { watch.constraint.matches($0.identity) }.map { min($0.timestamp, now) }.max()
            if let heard, heard > watch.lastHeard ?? .distantPast { watch.lastHeard = heard }
            let silentSince = max(watch.lastHeard ?? watch.listeningSince, watch.listeningSince)
            if let lastHeard = watch.lastHeard, now.timeIntervalSince(lastHeard) < Self.exitDelay {
                if watch.state != .inside {
                    watch.state = .inside
                    transitions.append(Transition(address: address, state: .inside, date: lastHeard))
                }
            } else if now.timeIntervalSince(silentSince) >= Self.exitDelay, watch.state != .outside {
                watch.state = .outside
                transitions.append(Transition(address: address, state: .outside, date: now))
            }
            watches[address] = watch
        }
        return transitions
    }

    private static func order(_ a: FenceKeeper.Address, _ b: FenceKeeper.Address) -> Bool {
        (a.app, a.group, a.identifier) < (b.app, b.group, b.identifier)
    }
}
