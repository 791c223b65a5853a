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
    @inline(__always)
    private func descend(
        from root: UInt32, row: Int, column: Int, latitude: Double, longitude: Double
    ) -> CandidateLeaf? {
        var word = root
        var bit = -1
        var south = -90 + Double(row) * PlacesTables.cellDegrees
        var west = -180 + Double(column) * PlacesTables.cellDegrees
        var size = PlacesTables.cellDegrees
        var depth = 0
        while word & Self.leafBit == 0 {
            guard Int(word) < nodeCount, depth < Self.maximumDepth else { return nil }
            depth += 1
            size *= 0.5
            let north = latitude >= south + size, east = longitude >= west + size
            if north { south += size }
            if east { west += size }
            let quadrant = (north ? 2 : 0) + (east ? 1 : 0)
            bit = 4 * Int(word) + quadrant
            word = child(quadrant, of: Int(word))
        }
        // A root that is a leaf has no bit (it is the whole cell, which the cell's boundaries cross).
        var inside = false
        if bit >= 0, let insideLeaves {
            inside = PlacesTables.u8(insideLeaves, bit >> 3) & (1 << UInt8(bit & 7)) != 0
        }
        return CandidateLeaf(word: word, inside: inside, south: south, west: west, size: size)
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
        // The target widened and the country's vectors' address taken once, not for every candidate.
        let target = SIMD4(target, 0)
        let countryVectors = vectors.address(of: countryPlaces.lowerBound)
        let limit = countryPlaces.count
        var best = -1
        var bestSquared = maxChordSquared
        var tied = false
        for entry in first..<(first + count) {
            let offset = candidate(entry)
            guard offset < limit else { return .search }
            let squared = PlaceVectors.squaredDistance(target, countryVectors[offset])
            if squared < bestSquared {
                (best, bestSquared, tied) = (offset, squared, false)
            } else if squared == bestSquared, best >= 0 {
                tied = true
            }
        }
        if tied { return .search }
        return .nearest(best >= 0 ? countryPlaces.lowerBound + best : nil)
    }
}
