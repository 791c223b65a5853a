import Testing
@testable import LocationPlaces
import TestSupport

/// `NRIN`, the leaves of mixed cells marked wholly inside their tree's country: a batch point in a marked
/// leaf takes the country from the leaf, without the point in polygon; a file whose `NRIN` does not fit its
/// tree, or that has no tree, is refused with a precise reason.
@Suite struct InsideLeavesTests {
    /// `NearestCandidatesTests`' file, plus a tree for Testland in the mixed cell east of Alpha's (row 200,
    /// column 381: 10°–10.5°N, 10.5°–11°E, cut from its south-west corner to the middle of its east edge):
    /// one node whose four leaves list Alpha, and `insideBits` as `NRIN`'s byte (node 1's quadrants are bits
    /// 4–7: south-west, south-east, north-west, north-east).
    static func builder(insideBits: [UInt8]? = [0]) -> PlacesFileBuilder {
        var builder = NearestCandidatesTests.builder()
        let alphaCell = 200 * 720 + 380
        let alpha = NearestCandidates.leafBit | 1 << 28
        builder.replace("NRCL", with: (0...(720 * 360)).flatMap { cell in
            le32(cell <= alphaCell ? 0 : cell == alphaCell + 1 ? 1 : 2)
        })
        builder.replace("NRPT", with: le16(0) + le16(0) + le32(0) + le16(0) + le16(0) + le32(1))
        let alphaNode = [alpha, NearestCandidates.leafBit, NearestCandidates.leafBit | 7 << 28, alpha]
        builder.replace("NRND", with: (alphaNode + [alpha, alpha, alpha, alpha]).flatMap(le32))
        if let insideBits { builder.sections.append(("NRIN", insideBits)) }
        return builder
    }

    /// A point south-east of the line, at sea, ~19 km from it: Testland's territorial sea by the polygons.
    static let seaPoint = (latitude: 10.05, longitude: 10.95)
    /// A point north-west of the line, in Testland, 48 km from Alpha.
    static let landPoint = (latitude: 10.26, longitude: 10.51)

    @Test func aMarkedLeafDecidesTheCountryInABatch() throws {
        // South-east marked: the leaf is trusted over the polygons (a marked leaf is the generator's word that
        // the polygons answer Testland there), so the sea point becomes land; north-west marked too.
        let (database, directory) = try Self.builder(insideBits: [0x60]).opened()
        defer { directory.remove() }
        let answers = database.reverseGeocode([Self.seaPoint, Self.landPoint])
        #expect(answers[0]?.isoCountryCode == "TL")
        #expect(answers[0]?.ocean == nil, "the marked leaf answered land")
        #expect(answers[1]?.locality == "Alpha")
        // One call a point keeps the polygons.
        #expect(database.reverseGeocode(latitude: Self.seaPoint.latitude, longitude: Self.seaPoint.longitude)?.ocean
            != nil)
    }

    @Test func unmarkedLeavesKeepThePolygons() throws {
        let (database, directory) = try Self.builder(insideBits: [0]).opened()
        defer { directory.remove() }
        let answers = database.reverseGeocode([Self.seaPoint, Self.landPoint])
        #expect(answers[0]?.ocean != nil)
        #expect(answers[0]?.isoCountryCode == "TL")
        #expect(answers[1]?.locality == "Alpha")
        #expect(answers[0] == database.reverseGeocode(latitude: Self.seaPoint.latitude, longitude: Self.seaPoint.longitude))
    }

    @Test func aWrongSectionIsCorrupt() throws {
        #expect(try Self.builder(insideBits: [0, 0]).openingError()?.contains("NRIN is 2 bytes, not 1") == true)
        var alone = PlacesFileBuilder.minimal()
        alone.sections.append(("NRIN", [0xFF]))
        #expect(try alone.openingError()?.contains("NRIN needs the nearest-place candidates") == true)
        #expect(try Self.builder(insideBits: nil).openingError() == nil)
    }
}
