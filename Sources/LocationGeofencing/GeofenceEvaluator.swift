import Foundation
import LocationProtocol

/// Every fence's state, advanced one fix at a time.
///
/// The cost of a fix is that of a ``FenceIndex`` query with margin k·a (``FenceJudge``) plus the
/// fences now inside and those still unknown — not the fence count. A fence the query does not find
/// is at least k·a outside its boundary, so an `.inside` or `.unknown` fence not found becomes
/// `.outside`; `.outside` fences not found are not visited at all. The first fix after many
/// `.unknown` fences were added resolves them all once.
///
/// A fix without a usable position or accuracy (a ≤ 0, as Core Location marks an invalid one)
/// decides nothing. Not thread-safe: confine it to one context (the engine's loop).
public final class GeofenceEvaluator {
    /// Private: a fence added to the index behind the evaluator's back would have no state.
    private let index = FenceIndex()
    private var states: [FenceState] = []
    /// Position of a fence in `inside` or `unknown` (it is in at most one).
    private var setPositions: [UInt32] = []
    private var inside: [UInt32] = []
    private var unknown: [UInt32] = []
    /// Dates crossings from the fixes near each fence's boundary.
    private let clock = CrossingClock()
    /// How many margins inside a boundary a fix may be for the fence to count as near it (outside,
    /// every fence the query finds is within one margin).
    static let nearBand = 3.0

    public init() {}

    public var count: Int { index.count }

    /// Fences currently `.inside`.
    public var insideCount: Int { inside.count }

    /// The index's and the states' storage in bytes.
    public var memoryBytes: Int {
        index.memoryBytes + states.capacity + setPositions.capacity * 4 + (inside.capacity + unknown.capacity) * 4
            + clock.memoryBytes
    }

    /// Adds a fence that starts in `state` (`.unknown`, or an assumed `.inside` / `.outside`;
    /// `.unmonitored` counts as `.unknown`). Nil when the circle is invalid.
    public func add(_ circle: FenceCircle, assuming state: FenceState = .unknown) -> FenceKey? {
        guard let key = index.insert(circle) else { return nil }
        let i = Int(key.rawValue)
        if i == states.count {
            states.append(.outside)
            setPositions.append(0)
        } else {
            states[i] = .outside
        }
        clock.reset(key.rawValue)
        setState(key.rawValue, state == .unmonitored ? .unknown : state)
        return key
    }

    /// Moves or resizes a fence and restarts it in `state`; false when the key is not in use or
    /// the circle is invalid (then nothing changes).
    @discardableResult
    public func replace(_ key: FenceKey, with circle: FenceCircle, assuming state: FenceState = .unknown) -> Bool {
        guard index.replace(key, with: circle) else { return false }
        forgetCrossings(key.rawValue)
        setState(key.rawValue, state == .unmonitored ? .unknown : state)
        return true
    }

    @discardableResult
    public func remove(_ key: FenceKey) -> Bool {
        guard index.contains(key) else { return false }
        forgetCrossings(key.rawValue)
        setState(key.rawValue, .outside)
        return index.remove(key)
    }

    /// The fence's circle as stored, nil for a key not in use.
    public func circle(_ key: FenceKey) -> FenceCircle? { index.circle(key) }

    /// The fence's state, nil for a key not in use.
    public func state(of key: FenceKey) -> FenceState? {
        index.contains(key) ? states[Int(key.rawValue)] : nil
    }

    /// Advances every fence's state with `fix`; returns the changes.
    public func evaluate(_ fix: Fix) -> [FenceTransition] {
        let accuracy = fix.horizontalAccuracy
        guard fix.hasValidPosition, accuracy > 0, accuracy.isFinite else { return [] }
        let margin = FenceJudge.confidenceFactor * accuracy
        guard index.query(latitude: fix.latitude, longitude: fix.longitude, margin: margin) else { return [] }
        var changes: [FenceTransition] = []
        let point = EarthPoint(latitude: fix.latitude, longitude: fix.longitude)
        let time = fix.timestamp.timeIntervalSinceReferenceDate
        clock.begin()
        for (key, chord) in index.found {
            let i = Int(key)
            let signed = (ChordBounds.lower(chord) + ChordBounds.upper(chord)) / 2 - index.radii[i]
            if signed >= -Self.nearBand * margin { clock.observe(key, signedDistance: signed, at: time) }
            guard let decision = FenceJudge.decide(chord: chord, radius: index.radii[i], margin: margin,
                                                   point, index.centres[i]),
                  decision != states[i] else { continue }
            changes.append(FenceTransition(key: FenceKey(rawValue: key), from: states[i], to: decision,
                                           crossedAt: crossingTime(key, inward: decision == .inside)))
            setState(key, decision)
        }
        // A fence near the last fix and not found now is more than a margin outside: the boundary
        // lay between the two fixes (its exact distance, for these few).
        for key in clock.leftBehind({ index.wasFound($0) }) {
            guard let circle = index.circle(FenceKey(rawValue: key)) else { continue }
            let distance = ChordBounds.exactDistance(point, EarthPoint(latitude: circle.latitude, longitude: circle.longitude))
            clock.observe(key, signedDistance: distance - circle.radius, at: time, near: false)
        }
        // Not found: more than k·a outside. Walk backwards, as leaving removes from the array.
        for position in stride(from: inside.count - 1, through: 0, by: -1) {
            leaveIfNotFound(inside[position], into: &changes)
        }
        for position in stride(from: unknown.count - 1, through: 0, by: -1) {
            leaveIfNotFound(unknown[position], into: &changes)
        }
        clock.end(at: time)
        return changes
    }

    /// A moved or removed fence's key may come back for another fence: what was seen near it goes.
    private func forgetCrossings(_ key: UInt32) {
        clock.reset(key)
    }

    /// When the fence's boundary was last crossed in the direction of the new state, if seen.
    private func crossingTime(_ key: UInt32, inward: Bool) -> Date? {
        clock.crossing(key, inward: inward).map(Date.init(timeIntervalSinceReferenceDate:))
    }

    private func leaveIfNotFound(_ key: UInt32, into changes: inout [FenceTransition]) {
        guard !index.wasFound(key) else { return }
        changes.append(FenceTransition(key: FenceKey(rawValue: key), from: states[Int(key)], to: .outside,
                                       crossedAt: crossingTime(key, inward: false)))
        setState(key, .outside)
    }

    /// Changes a fence's state, keeping `inside` and `unknown` in step (swap-remove, O(1)).
    private func setState(_ key: UInt32, _ state: FenceState) {
        let i = Int(key)
        let old = states[i]
        guard old != state else { return }
        if old == .inside { removeFromSet(&inside, key) }
        if old == .unknown { removeFromSet(&unknown, key) }
        if state == .inside { addToSet(&inside, key) }
        if state == .unknown { addToSet(&unknown, key) }
        states[i] = state
    }

    private func addToSet(_ set: inout [UInt32], _ key: UInt32) {
        setPositions[Int(key)] = UInt32(set.count)
        set.append(key)
    }

    private func removeFromSet(_ set: inout [UInt32], _ key: UInt32) {
        let position = Int(setPositions[Int(key)])
        let last = set.removeLast()
        if position < set.count {
            set[position] = last
            setPositions[Int(last)] = UInt32(position)
        }
    }
}

extension GeofenceEvaluator {
    /// The distance to the nearest fence boundary (see ``FenceIndex/nearestBoundaryDistance(latitude:longitude:limit:)``).
    public func nearestBoundaryDistance(latitude: Double, longitude: Double, limit: Double = .infinity) -> Double? {
        index.nearestBoundaryDistance(latitude: latitude, longitude: longitude, limit: limit)
    }
}
