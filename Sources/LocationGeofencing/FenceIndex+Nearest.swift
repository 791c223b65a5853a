extension FenceIndex {
    /// The distance in metres from the point to the nearest fence boundary, |d − r|, or nil when
    /// no boundary lies within `limit` metres (or the index is empty, or the point is invalid).
    ///
    /// Searches outward: queries with a growing margin (100 m, then ×4) until the best boundary
    /// found is no farther than the margin — every fence not found is farther than the margin from
    /// the point, so its boundary is too. Cost grows with the distance searched, not the fence count.
    public func nearestBoundaryDistance(latitude: Double, longitude: Double,
                                        limit: Double = .infinity) -> Double? {
        guard count > 0, limit >= 0 else { return nil }
        let point = EarthPoint(latitude: latitude, longitude: longitude)
        // Half a meridian: every fence is found at this margin.
        let everything = 20_004_000.0
        var reach = 100.0
        while true {
            let margin = min(reach, limit, everything)
            guard query(latitude: latitude, longitude: longitude, margin: margin) else { return nil }
            var best = Double.infinity
            for (key, chord) in found {
                let radius = radii[Int(key)]
                let lower = ChordBounds.lower(chord), upper = ChordBounds.upper(chord)
                let bound = lower > radius ? lower - radius : (upper < radius ? radius - upper : 0)
                guard bound < best else { continue }
                let distance = upper - lower < 1e-3 ? chord
                    : ChordBounds.exactDistance(point, centres[Int(key)])
                best = min(best, abs(distance - radius))
            }
            if best <= margin { return best }
            if margin >= limit { return nil }
            if margin >= everything { return best.isFinite ? best : nil }
            reach *= 4
        }
    }
}
