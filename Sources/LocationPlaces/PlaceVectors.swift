/// Every place's unit vector and k-d split axis, 16 bytes a place, copied from `PLCE` at open (~2.7 MB,
/// under a millisecond). The k-d search reads nothing else, and reads it at random: a node or leaf point
/// in a cache line shared with three others, instead of with one place's answer fields (`PLCE` is 32 B a
/// place), halves the memory the search pulls in.
final class PlaceVectors: @unchecked Sendable {
    /// `x, y, z` and the split axis (0, 1, 2) as `w`. Written only in `init`, then read-only.
    private let vectors: UnsafeMutablePointer<SIMD4<Float>>

    init(_ tables: PlacesTables) {
        vectors = .allocate(capacity: Swift.max(1, tables.placeCount))
        for place in 0..<tables.placeCount {
            let v = tables.vector(place)
            vectors[place] = SIMD4(v.x, v.y, v.z, Float(tables.placeSplitAxis(place)))
        }
    }

    deinit { vectors.deallocate() }

    @inline(__always) subscript(place: Int) -> SIMD4<Float> { vectors[place] }

    /// Where place `place`'s vector is, for loops that read a range of places (valid while `self` lives).
    @inline(__always) func address(of place: Int) -> UnsafePointer<SIMD4<Float>> { UnsafePointer(vectors + place) }

    /// Squared chord length between `target` and a stored vector, the axis lane (`w`) left out.
    @inline(__always)
    static func squaredDistance(_ target: SIMD3<Float>, _ stored: SIMD4<Float>) -> Float {
        squaredDistance(SIMD4(target, 0), stored)
    }

    /// Squared chord length, with the axis lane (`w`) left out.
    @inline(__always)
    static func squaredDistance(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Float {
        var delta = a - b
        delta.w = 0
        return (delta * delta).sum()
    }
}
