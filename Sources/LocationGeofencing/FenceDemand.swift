/// How accurate fixes must be, given how far the device is from the nearest fence boundary: the
/// accuracy a subscriber asks the engine for, so that `SourceSelector` runs a cheap coarse source
/// far from every fence and the precise one near a boundary.
///
/// requiredAccuracy = boundaryDistance / divisor, clamped to [precise, coarsest]. A crossing is
/// reported once a fix is k·a past the boundary (``FenceJudge``), and a coarse fix's own position
/// may be ~k·a off, so the divisor is k + 1 = 5.5: the precise source is asked for while the
/// device is still (k + 1)·a_coarse from the boundary by a coarse fix's reckoning, about a_coarse
/// even when that fix is k·a_coarse off the device's true position.
public struct FenceDemand: Equatable, Sendable {
    /// The accuracy asked for near a boundary, metres (a GPS receiver's).
    public var precise: Double
    /// The accuracy asked for far from every boundary, metres.
    public var coarsest: Double
    public var divisor: Double

    public init(precise: Double = 5, coarsest: Double = 3_000, divisor: Double = FenceJudge.confidenceFactor + 1) {
        self.precise = precise
        self.coarsest = coarsest
        self.divisor = divisor
    }

    /// Beyond this distance every boundary gets the coarsest accuracy: the search limit for
    /// ``FenceIndex/nearestBoundaryDistance(latitude:longitude:limit:)``.
    public var searchLimit: Double { coarsest * divisor }

    /// Metres. `nil` (no boundary within ``searchLimit``) and non-finite distances ask for the
    /// coarsest accuracy; a negative or NaN distance counts as on the boundary.
    public func requiredAccuracy(boundaryDistance: Double?) -> Double {
        guard let distance = boundaryDistance else { return coarsest }
        if distance.isNaN || distance <= 0 { return precise }
        return min(coarsest, max(precise, distance / divisor))
    }
}
