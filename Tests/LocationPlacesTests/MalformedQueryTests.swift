import Testing
@testable import LocationPlaces

/// Bad input gets an empty answer, never a crash.
@Suite struct MalformedQueryTests {
    @Test(arguments: [
        (Double.nan, 0.0), (0, .nan), (.infinity, 0), (-.infinity, 0), (0, .infinity), (0, -.infinity),
        (91, 0), (-91, 0), (0, 181), (0, -181), (90.000001, 0), (0, 180.000001), (.greatestFiniteMagnitude, 0),
        (0, -.greatestFiniteMagnitude), (.signalingNaN, 1),
    ])
    func coordinatesOutOfRangeGiveNil(latitude: Double, longitude: Double) throws {
        let database = try packageDatabase()
        #expect(database.reverseGeocode(latitude: latitude, longitude: longitude) == nil)
        #expect(database.reverseLookup(latitude: latitude, longitude: longitude) == nil)
        #expect(database.polygonCountryCode(latitude: latitude, longitude: longitude) == nil)
    }

    @Test(arguments: [(90.0, 180.0), (-90, -180), (90, -180), (-90, 180), (0, 180), (0, -180)])
    func theEdgesOfTheRangeAnswer(latitude: Double, longitude: Double) throws {
        let database = try packageDatabase()
        #expect(database.reverseGeocode(latitude: latitude, longitude: longitude) != nil)
    }

    @Test(arguments: ["", " ", "   \t\n ", ",", " , , ", "!!!", "\u{301}\u{301}"])
    func emptyTextFindsNothing(_ text: String) throws {
        let database = try packageDatabase()
        #expect(database.search(text).isEmpty)
    }

    @Test func hugeTextFindsNothing() throws {
        let database = try packageDatabase()
        #expect(database.search(String(repeating: "Paris ", count: 2_000)).isEmpty)
        #expect(database.search(String(repeating: "a", count: 1_025)).isEmpty)
        // Just under the limit is searched (and, being no name, finds nothing).
        #expect(database.search(String(repeating: "z", count: 1_024)).isEmpty)
    }

    @Test func aLimitOfZeroOrLessFindsNothing() throws {
        let database = try packageDatabase()
        #expect(database.search("Paris", limit: 0).isEmpty)
        #expect(database.search("Paris", limit: -3).isEmpty)
        #expect(database.search("Paris", limit: 1).count == 1)
    }

    @Test func aBadRegionDoesNotBreakTheSearch() throws {
        let database = try packageDatabase()
        for region in [SearchRegion(latitude: .nan, longitude: 0, radius: 1000),
                       SearchRegion(latitude: 0, longitude: 0, radius: -5),
                       SearchRegion(latitude: 0, longitude: 0, radius: .infinity)] {
            #expect(database.search("Paris", preferring: region).first?.isoCountryCode == "FR")
        }
    }
}
