/// The nearest-place candidates (`NRCL`, `NRPT`, `NRND`, `NRCA`; docs/places-database.md, "Nearest-place
/// candidates"): per 0.5° cell and country, a quadtree whose leaves list the few places that can be that
/// country's nearest for some point of the leaf, or say that none lies within `PlacesDatabase.localityRange`.
///
/// Why: near populated places the k-d search was the largest cost of an answer — some fifteen nodes and two
/// or three 32-place leaves a point, ~1,000 instructions. A leaf here is a few loads down the tree and a few
/// distances, computed as the k-d search computes them, so the nearest is the same place. A leaf with
/// more candidates than its count field holds, a tie, or a country the cell lists no tree for (a coast
/// within 2 km in a neighbouring cell) fall back to the k-d search.
///
/// The sections are optional: a file without them is answered by the k-d search alone. The validator has
/// checked `NRCL` and `NRPT` (`PlacesFileValidator.nearestCandidates`); a node or candidate word is checked
/// here, where it is read, and a wrong one sends the query to the k-d search. Candidates are 16-bit offsets
/// in their country's k-d range (the largest, US, has 17,337 places): half the bytes a batch pulls in.
///
/// The optional `NRIN` marks the leaves of mixed cells that lie wholly inside their tree's country. A batch
/// point in a mixed cell whose leaf is marked takes its country from the leaf, without the point in polygon
/// (some 800 instructions a point in a coastal or border cell): the generator marks a leaf only when no
/// boundary segment of the cell meets it and the reader's own test puts it in that country.
struct NearestCandidates: @unchecked Sendable {
    /// `NRCL`: per GRID cell, its first `NRPT` entry; one more word marks where the last cell's end.
    let cellFirst: UnsafeRawPointer
    /// `NRPT` (8 B): `u16 country`, `u16 reserved`, `u32` root word.
    let roots: UnsafeRawPointer
    let rootCount: Int
    /// `NRND` (16 B): four child words, south-west, south-east, north-west, north-east.
    let nodes: UnsafeRawPointer
    let nodeCount: Int
    /// `NRCA` (2 B): places, as offsets in their country's k-d range (`CTRY.placeStart`).
    let places: UnsafeRawPointer
    let placeCount: Int
    /// `NRIN` (optional, 1 bit a node's child): bit `4 × node + quadrant` set when that child is a leaf of a
    /// mixed cell's tree lying wholly inside the tree's country (`insideLeaf`).
    var insideLeaves: UnsafeRawPointer? = nil

    /// A child word with this bit is a leaf: count in bits 28…30, first `NRCA` entry in bits 0…27.
    static let leafBit: UInt32 = 1 << 31
    static let firstMask: UInt32 = 0x0FFF_FFFF
    /// A leaf count that means "more candidates than a leaf lists: search the k-d tree".
    static let searchCount = 7
    /// More levels than a tree of 0.5° cells needs (the generator stops at 7, ~430 m): a descent that has not
    /// reached a leaf by then is a corrupt file's cycle.
    static let maximumDepth = 16

    @inline(__always) func firstRoot(ofCell cell: Int) -> Int { Int(PlacesTables.u32(cellFirst, cell * 4)) }
    @inline(__always) func rootCountry(_ entry: Int) -> Int { Int(PlacesTables.u16(roots, entry * 8)) }
    @inline(__always) func rootWord(_ entry: Int) -> UInt32 { PlacesTables.u32(roots, entry * 8 + 4) }
    @inline(__always) func child(_ quadrant: Int, of node: Int) -> UInt32 {
        PlacesTables.u32(nodes, node * 16 + quadrant * 4)
    }
    /// Candidate `entry` as an offset in its country's k-d range.
    @inline(__always) func candidate(_ entry: Int) -> Int { Int(PlacesTables.u16(places, entry * 2)) }

    /// The leaf for a point of cell (`row`, `column`) in `country`'s polygons; `nil` when the cell lists no
    /// tree for that country (or the file's tree is wrong: a node outside `NRND`, or too deep).
    @inline(__always)
    func leaf(row: Int, column: Int, country: Int, latitude: Double, longitude: Double) -> CandidateLeaf? {
        let cell = row * PlacesTables.gridColumns + column
        var entry = firstRoot(ofCell: cell)
        let end = firstRoot(ofCell: cell + 1)
        while entry < end, rootCountry(entry) != country { entry += 1 }
        guard entry < end else { return nil }
        return descend(from: rootWord(entry), row: row, column: column, latitude: latitude, longitude: longitude)
    }

    /// For a point of mixed cell (`row`, `column`): a country whose tree there has, at the point, a leaf `NRIN`
    /// marks as wholly inside that country's polygons — the point in polygon's answer for every point of the
    /// leaf — and that leaf; `nil` when no tree of the cell has one (or the file has no `NRIN`).
    @inline(__always)
    func insideLeaf(row: Int, column: Int, latitude: Double, longitude: Double) -> (country: Int, leaf: CandidateLeaf)? {
        guard insideLeaves != nil else { return nil }
        let cell = row * PlacesTables.gridColumns + column
        for entry in firstRoot(ofCell: cell)..<firstRoot(ofCell: cell + 1) {
            if let leaf = descend(from: rootWord(entry), row: row, column: column, latitude: latitude,
                                  longitude: longitude), leaf.inside {
                return (rootCountry(entry), leaf)
            }
        }
        return nil
    }

    /// The leaf under root word `root` holding the point; `nil` for a wrong tree (a node outside `NRND`, or
    /// too deep). The quadrants split at the exact midpoints of their parent (halving 0.5° is exact in
    /// binary), as the generator splits them; a point on a midpoint belongs to the north or east.
    ///
    /// The point is first counted in whole units of the deepest level (`units`), so that each level's quarter
    /// is two bits of those counts: comparing the point with each midpoint took two branches a level that go
    /// either way at random, so the predictor missed about one a level.
    @inline(__always)
    private func descend(
        from root: UInt32, row: Int, column: Int, latitude: Double, longitude: Double
    ) -> CandidateLeaf? {
        let cellSouth = -90 + Double(row) * PlacesTables.cellDegrees
        let cellWest = -180 + Double(column) * PlacesTables.cellDegrees
        let y = Self.units(latitude, from: cellSouth), x = Self.units(longitude, from: cellWest)
        var word = root
        var bit = -1
        var depth = 0
        while word & Self.leafBit == 0 {
            guard Int(word) < nodeCount, depth < Self.maximumDepth else { return nil }
            depth += 1
            let shift = Self.maximumDepth - depth
            let quadrant = Int(truncatingIfNeeded: (y >> shift & 1) << 1 | (x >> shift & 1))
            bit = 4 * Int(word) + quadrant
            word = child(quadrant, of: Int(word))
        }
        // A root that is a leaf has no bit (it is the whole cell, which the cell's boundaries cross).
        var inside = false
        if bit >= 0, let insideLeaves {
            inside = PlacesTables.u8(insideLeaves, bit >> 3) & (1 << UInt8(bit & 7)) != 0
        }
        let dropped = Self.maximumDepth - depth
        return CandidateLeaf(
            word: word, inside: inside,
            south: cellSouth + Double((y >> dropped) << dropped) * Self.unit,
            west: cellWest + Double((x >> dropped) << dropped) * Self.unit,
            size: Double(1 << dropped) * Self.unit)
    }

    /// The side of a box at `maximumDepth`: 0.5° / 2¹⁶, a power of two, so that every box edge
    /// `origin + n × unit` is a double without rounding.
    static let unit = PlacesTables.cellDegrees / Double(1 << maximumDepth)

    /// The whole units from `origin` (a cell's edge) to `value`: the `n` with `origin + n × unit ≤ value <
    /// origin + (n + 1) × unit`, exactly (the subtraction may round, so its whole part is checked against
    /// the exact edges and moved by one when wrong), clamped to the cell: 0 below it, 2¹⁶ − 1 above. A level's
    /// midpoint comparison `value ≥ south + size` is then bit `maximumDepth − level` of the count.
    @inline(__always)
    static func units(_ value: Double, from origin: Double) -> UInt32 {
        // Converting truncates, which is rounding down for a point in the cell (without `floor`'s call); a
        // point below the cell counts 0 or less either way, and is clamped to 0.
        var count = Int((value - origin) / unit)
        if origin + Double(count) * unit > value {
            count -= 1
        } else if origin + Double(count + 1) * unit <= value {
            count += 1
        }
        return UInt32(Swift.min(Swift.max(count, 0), (1 << maximumDepth) - 1))
    }
}

/// A leaf of a candidate tree and its box.
struct CandidateLeaf {
    var word: UInt32
    /// `NRIN` marks it wholly inside its tree's country.
    var inside: Bool
    var south: Double
    var west: Double
    var size: Double

    /// Whether a point of the leaf's cell descends to this leaf: the descent puts a point on a midpoint in the
    /// north or east quarter, so the box holds its south and west edges and not its north and east ones.
    @inline(__always)
    func contains(latitude: Double, longitude: Double) -> Bool {
        latitude >= south && latitude < south + size && longitude >= west && longitude < west + size
    }
}

/// What a leaf says about the nearest place.
enum CandidateAnswer {
    /// The nearest place within the bound (`nil`: none).
    case nearest(Int?)
    /// The leaf cannot tell: search the k-d tree.
    case search
}

extension NearestCandidates {
    /// The nearest of leaf word `word`'s candidates to `target` closer than `maxChordSquared`, by the k-d
    /// search's own float distance and strict comparison; `.search` when the leaf has too many candidates to
    /// list, two candidates tie (the k-d search's order decides ties), or the file is wrong (a run outside
    /// `NRCA`, a candidate outside the country's range `countryPlaces`).
    @inline(__always)
    func nearest(
        leaf word: UInt32, countryPlaces: Range<Int>, target: SIMD3<Float>, maxChordSquared: Float,
        vectors: PlaceVectors
    ) -> CandidateAnswer {
        let count = Int(word >> 28) & 7
        let first = Int(word & Self.firstMask)
        guard count < Self.searchCount, first + count <= placeCount else { return .search }
        guard count > 0 else { return .nearest(nil) }
        let limit = countryPlaces.count
        guard limit > 0 else { return .search }
        // A fixed number of lanes, the nearest kept by selects on integers, not branches: which candidate is
        // nearer is a coin toss for the branch predictor. Lanes past the count read the last candidate again
        // (a valid entry) and count as infinitely far. The distances are non-negative floats, whose bit
        // patterns order as they do. The target widened and the country's vectors' address taken once.
        let target = SIMD4(target, 0)
        let countryVectors = vectors.address(of: countryPlaces.lowerBound)
        let last = first + count - 1
        var best = -1
        var bestBits = maxChordSquared.bitPattern
        var tied = 0
        var outside = 0
        for lane in 0..<(Self.searchCount - 1) {
            let offset = candidate(Swift.min(first + lane, last))
            outside |= offset >= limit ? 1 : 0
            let squared = PlaceVectors.squaredDistance(target, countryVectors[Swift.min(offset, limit - 1)])
            let bits = lane < count ? squared.bitPattern : .max
            let nearer = bits < bestBits
            tied = nearer ? 0 : tied | (bits == bestBits && best >= 0 ? 1 : 0)
            best = nearer ? offset : best
            bestBits = nearer ? bits : bestBits
        }
        guard outside == 0 else { return .search }
        // Two candidates at the same distance: the k-d search's order decides which is the answer.
        if tied != 0 { return .search }
        guard best >= 0 else { return .nearest(nil) }
        return .nearest(countryPlaces.lowerBound + best)
    }
}
