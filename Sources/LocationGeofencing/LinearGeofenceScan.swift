import LocationProtocol

/// The same fence states as ``GeofenceEvaluator``, by judging every fence on every fix: the
/// reference the evaluator is tested and benchmarked against (its cost is linear in the fences).
public final class LinearGeofenceScan {
    private var centres: [EarthPoint] = []
    private var radii: [Double] = []
    private var states: [FenceState] = []

    public init() {}

    public var count: Int { centres.count }

    /// Adds a fence; keys are 0, 1, 2… in order of addition (as a fresh ``FenceIndex`` gives them).
    /// Nil when the circle is invalid.
    public func add(_ circle: FenceCircle, assuming state: FenceState = .unknown) -> FenceKey? {
        guard circle.isValid else { return nil }
        // The index keeps the centre as Cartesian coordinates; so does the scan.
        centres.append(EarthPoint(latitude: circle.latitude, longitude: circle.longitude))
        radii.append(circle.radius)
        states.append(state == .unmonitored ? .unknown : state)
        return FenceKey(rawValue: UInt32(centres.count - 1))
    }

    public func state(of key: FenceKey) -> FenceState? {
        Int(key.rawValue) < states.count ? states[Int(key.rawValue)] : nil
    }

    /// Judges every fence; a fence farther than k·a outside is decided `.outside` like any other.
    public func evaluate(_ fix: Fix) -> [FenceTransition] {
        let accuracy = fix.horizontalAccuracy
        guard fix.hasValidPosition, accuracy > 0, accuracy.isFinite else { return [] }
        let margin = FenceJudge.confidenceFactor * accuracy
        let point = EarthPoint(latitude: fix.latitude, longitude: fix.longitude)
        var changes: [FenceTransition] = []
        // Buffers, not class properties, in the loop: no exclusivity check per fence.
        centres.withUnsafeBufferPointer { centres in
            radii.withUnsafeBufferPointer { radii in
                states.withUnsafeMutableBufferPointer { states in
                    for i in centres.indices {
                        let chord = point.chord(to: centres[i])
                        guard let decision = FenceJudge.decide(chord: chord, radius: radii[i], margin: margin,
                                                               point, centres[i]),
                              decision != states[i] else { continue }
                        changes.append(FenceTransition(key: FenceKey(rawValue: UInt32(i)), from: states[i], to: decision))
                        states[i] = decision
                    }
                }
            }
        }
        return changes
    }
}
