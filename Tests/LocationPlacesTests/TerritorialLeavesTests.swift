import Testing
@testable import LocationPlaces
import TestSupport
import SeededRandom

/// `NRTS`, the leaves of mixed cells marked wholly in their tree's country's territorial sea: a batch point in a
/// marked leaf is answered as that sea without the point in polygon and the coast search; `NRIN` wins over it; a
/// file whose `NRTS` does not fit its tree, or that has no tree, is refused with a precise reason; and in the
/// package's file every marked leaf is what the polygons and the coasts answer at its points.
@Suite struct TerritorialLeavesTests {
    /// `InsideLeavesTests`' file (Testland's tree in the mixed cell east of Alpha's, node 1's quadrants bits
    /// 4–7: south-west, south-east, north-west, north-east), with `territorialBits` as `NRTS`'s byte.
    static func builder(insideBits: [UInt8] = [0], territorialBits: [UInt8]?) -> PlacesFileBuilder {
        var builder = InsideLeavesTests.builder(insideBits: insideBits)
        if let territorialBits { builder.sections.append(("NRTS", territorialBits)) }
        return builder
    }

    @Test func aMarkedLeafAnswersTheTerritorialSeaInABatch() throws {
        // North-west marked: the leaf is trusted over the polygons (a marked leaf is the generator's word that the
        // polygons and the coasts answer Testland's sea there), so the land point becomes sea; south-east marked
        // too, where the polygons agree, and the batch answers what one call answers.
        let (database, directory) = try Self.builder(territorialBits: [0x60]).opened()
        defer { directory.remove() }
        let sea = InsideLeavesTests.seaPoint, land = InsideLeavesTests.landPoint
        let answers = database.reverseGeocode([sea, land])
        #expect(answers[0] == database.reverseGeocode(latitude: sea.latitude, longitude: sea.longitude))
        #expect(answers[0]?.ocean != nil && answers[0]?.isoCountryCode == "TL")
        #expect(answers[1]?.isoCountryCode == "TL")
        #expect(answers[1]?.ocean != nil, "the marked leaf answered the territorial sea")
        #expect(answers[1]?.locality == nil)
        // One call a point keeps the polygons.
        #expect(database.reverseGeocode(latitude: land.latitude, longitude: land.longitude)?.locality == "Alpha")
    }

    @Test func aLeafMarkedInsideIsLand() throws {
        let (database, directory) = try Self.builder(insideBits: [0x40], territorialBits: [0x40]).opened()
        defer { directory.remove() }
        let answers = database.reverseGeocode([InsideLeavesTests.landPoint])
        #expect(answers[0]?.locality == "Alpha")
        #expect(answers[0]?.ocean == nil)
    }

    @Test func aWrongSectionIsCorrupt() throws {
        #expect(try Self.builder(territorialBits: [0, 0]).openingError()?.contains("NRTS is 2 bytes, not 1") == true)
        var alone = PlacesFileBuilder.minimal()
        alone.sections.append(("NRTS", [0xFF]))
        #expect(try alone.openingError()?.contains("NRTS needs the nearest-place candidates") == true)
        #expect(try Self.builder(territorialBits: nil).openingError() == nil)
    }

    /// The generator's claim, checked against the reader's own geometry: at points spread over a sample of the
    /// package file's marked leaves (corners, edges' middles and centre, each a hair inside the box), one call —
    /// the point in polygon and the coast search — answers the territorial sea of the leaf's tree's country, and
    /// the batch answers the same.
    @Test func everyMarkedLeafOfThePackageFileIsThatCountrysSea() throws {
        let database = try packageDatabase()
        let candidates = try #require(database.tables.nearestCandidates)
        #expect(candidates.territorialLeaves != nil, "the package's file has NRTS")
        let leaves = Self.markedLeaves(candidates)
        #expect(leaves.count > 20_000, "\(leaves.count) marked leaves")
        var generator = SplitMix64(seed: 0x7E55)
        let sample = (0..<4_000).map { _ in leaves[Int(generator.next() % UInt64(leaves.count))] }
        var points: [(latitude: Double, longitude: Double)] = []
        var wrong: [String] = []
        for leaf in sample {
            for (north, east) in [(0.001, 0.001), (0.001, 0.999), (0.999, 0.001), (0.999, 0.999), (0.5, 0.5),
                                  (0.001, 0.5), (0.5, 0.999)] {
                let point = (latitude: leaf.south + north * leaf.size, longitude: leaf.west + east * leaf.size)
                points.append(point)
                let hit = database.reverseLookup(latitude: point.latitude, longitude: point.longitude)
                if hit?.surface != .territorialSea || hit?.polygonCountry != leaf.country {
                    wrong.append("\(point): \(String(describing: hit)), leaf of country \(leaf.country)")
                }
            }
        }
        let wrongCount = wrong.count
        #expect(wrongCount == 0, "\(wrong.prefix(3))")
        var differing = 0
        database.reverseGeocode(points) { index, place in
            if place != database.reverseGeocode(latitude: points[index].latitude, longitude: points[index].longitude) {
                differing += 1
            }
        }
        #expect(differing == 0)
    }

    struct MarkedLeaf {
        var country: Int
        var south: Double
        var west: Double
        var size: Double
    }

    /// Every leaf `NRTS` marks, with its box and its tree's country.
    static func markedLeaves(_ candidates: NearestCandidates) -> [MarkedLeaf] {
        guard let bits = candidates.territorialLeaves else { return [] }
        var found: [MarkedLeaf] = []
        for cell in 0..<(PlacesTables.gridRows * PlacesTables.gridColumns) {
            let south = -90 + Double(cell / PlacesTables.gridColumns) * PlacesTables.cellDegrees
            let west = -180 + Double(cell % PlacesTables.gridColumns) * PlacesTables.cellDegrees
            for entry in candidates.firstRoot(ofCell: cell)..<candidates.firstRoot(ofCell: cell + 1) {
                let root = candidates.rootWord(entry)
                guard root & NearestCandidates.leafBit == 0 else { continue }
                var stack = [(node: Int(root), south: south, west: west, size: PlacesTables.cellDegrees)]
                while let (node, nodeSouth, nodeWest, size) = stack.popLast() {
                    let half = size / 2
                    for quadrant in 0..<4 {
                        let childSouth = nodeSouth + (quadrant >= 2 ? half : 0)
                        let childWest = nodeWest + (quadrant & 1 == 1 ? half : 0)
                        let child = candidates.child(quadrant, of: node)
                        if child & NearestCandidates.leafBit == 0 {
                            stack.append((Int(child), childSouth, childWest, half))
                            continue
                        }
                        let bit = 4 * node + quadrant
                        if PlacesTables.u8(bits, bit >> 3) & (1 << UInt8(bit & 7)) != 0 {
                            found.append(MarkedLeaf(country: candidates.rootCountry(entry), south: childSouth,
                                                    west: childWest, size: half))
                        }
                    }
                }
            }
        }
        return found
    }
}
