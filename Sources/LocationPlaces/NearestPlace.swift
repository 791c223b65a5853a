#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nearest populated place on the sphere: each country's places are an implicit k-d tree on unit vectors
/// (node of `[lo, hi)` at `lo + (hi - lo) / 2`), and the nearest by chord length is the nearest by
/// great-circle distance, with no special case at the antimeridian or the poles.
extension PlacesTables {
    /// The place in `country`'s k-d range nearest to `target`, if one lies closer than
    /// `maxChordSquared` (a squared chord length on the unit sphere).
    func nearestPlace(
        inCountry country: Int, to target: SIMD3<Float>, maxChordSquared: Float, vectors: PlaceVectors
    ) -> Int? {
        let start = countryPlaceStart(country)
        var search = NearestSearch(target: SIMD4(target, 0), bestSquared: maxChordSquared)
        search.visit(vectors, start, start + countryPlaceCount(country))
        return search.best
    }

    /// In single precision, like the stored vectors (each sine and cosine rounded once from double precision):
    /// cos φ, cos λ, sin λ and sin φ as the four sines of one vector (`FourSines`), with sin(90° − x) = cos x.
    static func unitVector(latitude: Double, longitude: Double) -> SIMD3<Float> {
        let s = FourSines.of(degrees: SIMD4(90 - latitude, 90 - longitude, longitude, latitude))
        return SIMD3(s[0] * s[1], s[0] * s[2], s[3])
    }

    /// Latitude and longitude (degrees) of a place's unit vector.
    func coordinate(ofPlace place: Int) -> (latitude: Double, longitude: Double) {
        let v = vector(place)
        let x = Double(v.x), y = Double(v.y), z = Double(v.z)
        return (atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi, atan2(y, x) * 180 / .pi)
    }
}

/// Chord length on the unit sphere for a great-circle distance in metres.
func chordLength(metres: Double) -> Double {
    2 * sin(metres / (2 * PlacesGeometry.earthRadius))
}

private struct NearestSearch {
    static let leafSize = 32
    /// `w` is 0; `squaredDistance` leaves out the `w` lane, which in `PlaceVectors` is the split axis.
    let target: SIMD4<Float>
    var bestSquared: Float
    /// Only the index: the search reads nothing from `PLCE`. Reading each best-so-far's record as it was
    /// found (to overlap the answer's load with the search) made every improvement a cache miss that
    /// the processor's reorder window could not hide — nearly half of the search's time near places.
    var best: Int?

    init(target: SIMD4<Float>, bestSquared: Float) {
        self.target = target
        self.bestSquared = bestSquared
    }

    @inline(__always)
    private mutating func improve(_ index: Int, _ squared: Float) {
        bestSquared = squared
        best = index
    }

    /// Depth is log2 of a country's place count (≤ 18), so recursion is cheap and allocation-free.
    mutating func visit(_ vectors: PlaceVectors, _ lo: Int, _ hi: Int) {
        // A small subtree is contiguous in `PlaceVectors`: scanning it beats descending it (no branches
        // mispredicted, and consecutive cache lines the processor fetches ahead). 32 measured faster near
        // places than 8, 16 or 64.
        if hi - lo <= Self.leafSize {
            // Selects, not a branch per point: which point of a leaf improves is unpredictable, and a
            // mispredicted branch costs as much as the distance computations of several points.
            var leafBest = -1
            var leafSquared = bestSquared
            for index in lo..<hi {
                let squared = PlaceVectors.squaredDistance(target, vectors[index])
                let closer = squared < leafSquared
                leafSquared = closer ? squared : leafSquared
                leafBest = closer ? index : leafBest
            }
            if leafBest >= 0 { improve(leafBest, leafSquared) }
            return
        }
        let mid = lo + (hi - lo) / 2
        let node = vectors[mid]
        let delta = target - node
        let squared = PlaceVectors.squaredDistance(target, node)
        if squared < bestSquared { improve(mid, squared) }
        // A switch, not `delta[axis]`: a variable SIMD lane index goes through memory.
        let along: Float
        switch node.w {
        case 0: along = delta.x
        case 1: along = delta.y
        default: along = delta.z
        }
        if along <= 0 {
            visit(vectors, lo, mid)
            if along * along < bestSquared { visit(vectors, mid + 1, hi) }
        } else {
            visit(vectors, mid + 1, hi)
            if along * along < bestSquared { visit(vectors, lo, mid) }
        }
    }
}
