import Testing
@testable import LocationPlaces
import TestSupport
import SeededRandom

/// The optional nearest-place candidate sections: the reader answers from a leaf when the leaf can tell,
/// searches the k-d tree when it cannot, refuses a file whose candidate index is wrong with a precise
/// reason, and neither crashes nor loops on a wrong tree.
@Suite struct NearestCandidatesTests {
    /// Alpha's cell (row 200, column 380: 10°–10.5°N, 10°–10.5°E) split once at 10.25°: south-west lists
    /// Alpha, south-east lists no place (a leaf that says "none in reach", so an answer without a locality
    /// there shows the leaf decided), north-west says "search", north-east lists Alpha.
    static func builder(
        nodes: [UInt32]? = nil, candidates: [UInt32] = [0], root: UInt32 = 0, rootCountry: UInt16 = 0
    ) -> PlacesFileBuilder {
        var builder = PlacesFileBuilder.minimal()
        let alphaCell = 200 * 720 + 380
        let cellFirst = (0...(720 * 360)).flatMap { cell in le32(cell <= alphaCell ? 0 : 1) }
        let leaf = { (count: UInt32, first: UInt32) in NearestCandidates.leafBit | count << 28 | first }
        let words = nodes ?? [leaf(1, 0), leaf(0, 0), leaf(7, 0), leaf(1, 0)]
        builder.sections += [
            ("NRCL", cellFirst),
            ("NRPT", le16(rootCountry) + le16(0) + le32(root)),
            ("NRND", words.flatMap(le32)),
            ("NRCA", candidates.map(UInt16.init).flatMap(le16)),
        ]
        return builder
    }

    /// The batch reads the leaves (one call a point keeps the k-d search).
    @Test func theLeafHoldingThePointAnswersInABatch() throws {
        let (database, directory) = try Self.builder().opened()
        defer { directory.remove() }
        let points: [(latitude: Double, longitude: Double)] = [(10.12, 10.08), (10.12, 10.3), (10.3, 10.1), (10.3, 10.3)]
        let answers = database.reverseGeocode(points)
        #expect(answers[0]?.locality == "Alpha")
        #expect(answers[3]?.locality == "Alpha")
        // "Search" leaf: the k-d search finds Alpha.
        #expect(answers[2]?.locality == "Alpha")
        // The leaf that lists no place: Testland without a locality, where the k-d search (one call) finds
        // Alpha 22 km away — so the leaf decided.
        #expect(answers[1]?.isoCountryCode == "TL")
        #expect(answers[1]?.locality == nil)
        #expect(database.reverseGeocode(latitude: 10.12, longitude: 10.3)?.locality == "Alpha")
    }

    @Test func aWrongTreeFallsBackToTheSearch() throws {
        let leaf = NearestCandidates.leafBit | 1 << 28
        // A node that is its own child (a cycle), a child outside NRND, a run outside NRCA, a candidate outside
        // the country's places.
        for (nodes, candidates) in [([0, 0, 0, 0] as [UInt32], [0] as [UInt32]), ([9, 9, 9, 9], [0]),
                                    ([leaf | 5, leaf | 5, leaf | 5, leaf | 5], [0]), ([leaf, leaf, leaf, leaf], [7])] {
            let (database, directory) = try Self.builder(nodes: nodes, candidates: candidates).opened()
            defer { directory.remove() }
            let answers = database.reverseGeocode([(latitude: 10.12, longitude: 10.3), (latitude: 10.3, longitude: 10.3)])
            #expect(answers.map { $0?.locality } == ["Alpha", "Alpha"])
        }
    }

    @Test func aWrongIndexIsCorrupt() throws {
        var incomplete = Self.builder()
        incomplete.sections.removeAll { $0.tag == "NRND" }
        #expect(try incomplete.openingError()?.contains("NRND missing") == true)

        var short = Self.builder()
        short.replace("NRCL", with: le32(0) + le32(1))
        #expect(try short.openingError()?.contains("NRCL has 2 entries") == true)

        var descending = Self.builder()
        descending.patch("NRCL", at: 4 * 720 * 360, le32(0))
        #expect(try descending.openingError()?.contains("ascend") == true)

        #expect(try Self.builder(rootCountry: 1).openingError()?.contains("NRPT[0] country is 1") == true)
        #expect(try Self.builder(root: 1).openingError()?.contains("outside NRND") == true)
        let outside = NearestCandidates.leafBit | 2 << 28
        #expect(try Self.builder(root: outside).openingError()?.contains("outside NRCA") == true)

        var ragged = Self.builder()
        ragged.replace("NRND", with: [1, 2, 3])
        #expect(try ragged.openingError()?.contains("NRND") == true)
    }

    /// The descent counts a point in units of the deepest box (`NearestCandidates.units`) instead of
    /// comparing it with each level's midpoint: the count must pick the quarter the comparisons pick at every
    /// level — on a midpoint, a unit's width either side and one ulp either side too, where the subtraction
    /// behind the count rounds — and clamp points just outside the cell as the comparisons do.
    @Test func countingUnitsPicksTheQuartersTheMidpointsPick() {
        var random = SplitMix64(seed: 13)
        let unit = NearestCandidates.unit
        for _ in 0..<2_000 {
            let origin = -90 + Double(Int(random.uniform(0, 359.99))) * PlacesTables.cellDegrees
            let edge = origin + Double(Int(random.uniform(0, 65_536))) * unit
            for value in [edge, edge.nextUp, edge.nextDown, edge + unit / 3, edge - unit / 3,
                          origin + random.uniform(0, PlacesTables.cellDegrees), origin.nextDown,
                          (origin + PlacesTables.cellDegrees).nextDown, origin + PlacesTables.cellDegrees] {
                let count = NearestCandidates.units(value, from: origin)
                var south = origin, size = PlacesTables.cellDegrees
                for level in 1...NearestCandidates.maximumDepth {
                    size *= 0.5
                    let north = value >= south + size
                    if north { south += size }
                    let bit = count >> (NearestCandidates.maximumDepth - level) & 1
                    #expect((bit == 1) == north, "value \(value) from \(origin), level \(level)")
                }
            }
        }
    }
}
