import Testing
@testable import LocationPlaces

@Suite struct PlacesDatabaseErrorTests {
    @Test func missingDatabaseNamesTheSearchedPathsAndTheVariable() {
        let text = PlacesDatabaseError.missing(searched: ["/a/places.bin", "/b/places.bin"]).description
        #expect(text.contains("/a/places.bin, /b/places.bin"))
        #expect(text.contains("CORELOCATION_PLACES_DB"))
    }
}
