import LocationProtocol

/// The accuracy-aware decision for one fence and one fix.
///
/// A fix's `horizontalAccuracy` a is, as in Core Location, the radius of ~68 % confidence. The
/// judge says `.inside` only when d + k·a ≤ r and `.outside` only when d − k·a ≥ r (d: geodesic
/// distance from the fix to the centre, r: the radius); in between it says nothing and the fence
/// keeps its state. There is no dwell time: a crossing is reported as soon as one fix is k·a clear
/// of the boundary.
///
/// k = 4.5. A receiver whose horizontalAccuracy is honest has per-axis σ = a / 1.515 (the 68 %
/// radius of a circular Gaussian is σ·√(−2 ln 0.32)), so k·a ≈ 6.8σ; one that reports its per-axis
/// σ itself as the accuracy — common — gets k·a = 4.5σ. Standing on a boundary, the radial error
/// is ≈ N(0, σ²): at 4.5σ a false decision has probability 3.4·10⁻⁶ per fix, about one in 80 hours
/// of 1 Hz fixes in each direction, so an enter/exit pair is not expected in years. k = 3 would give
/// that receiver ~5 false entries and ~5 false exits an hour (tested in `FenceJudgeNoiseTests`).
/// The price is latency: at a = 5 m a crossing is reported ~23 m past the boundary.
public enum FenceJudge {
    public static let confidenceFactor = 4.5

    /// `.inside`, `.outside`, or nil (undecided; also for an unknown accuracy, a ≤ 0, or a
    /// radius that is not positive).
    public static func decide(distance: Double, radius: Double, accuracy: Double) -> FenceState? {
        guard accuracy > 0, accuracy.isFinite, radius > 0, radius.isFinite, distance.isFinite else { return nil }
        let margin = confidenceFactor * accuracy
        if distance + margin <= radius { return .inside }
        if distance - margin >= radius { return .outside }
        return nil
    }

    /// The same decision from chord bounds: the exact geodesic only when a bound straddles a threshold.
    @inline(__always)
    static func decide(chord: Double, radius: Double, margin: Double,
                       _ fix: EarthPoint, _ centre: EarthPoint) -> FenceState? {
        let lower = ChordBounds.lower(chord), upper = ChordBounds.upper(chord)
        if upper + margin <= radius { return .inside }
        if lower - margin >= radius { return .outside }
        // The exact distance can still decide only if a threshold lies inside [lower, upper].
        if lower + margin > radius && upper - margin < radius { return nil }
        let d = ChordBounds.exactDistance(fix, centre)
        if d + margin <= radius { return .inside }
        if d - margin >= radius { return .outside }
        return nil
    }
}
