import Foundation
import Testing
@testable import LocationPlaces

/// `PlaceDescription` is a value: answers that share a box (a batch's answers for the same place) each keep
/// their own strings, radius and population when one of them is changed.
@Suite struct PlaceDescriptionTests {
    @Test func answersSharingABoxStayValues() throws {
        let database = try packageDatabase()
        // Two points a few hundred metres apart in central Berlin: the batch answers both with one box.
        let points: [(latitude: Double, longitude: Double)] = [(52.5200, 13.4050), (52.5210, 13.4060)]
        let answers = database.reverseGeocode(points)
        let first = try #require(answers[0]), second = try #require(answers[1])
        #expect(first.sharedStrings === second.sharedStrings)
        #expect(first.population != nil && first.radius >= 500)

        var changed = second
        changed.radius = 42
        changed.population = 7
        changed.locality = "Elsewhere"
        #expect(changed.radius == 42 && changed.population == 7 && changed.locality == "Elsewhere")
        #expect(second.radius == first.radius && second.population == first.population)
        #expect(second.locality == first.locality && first.locality == "Berlin")
        #expect(changed != second)
        #expect(first.sharedStrings === second.sharedStrings, "the untouched answers still share their box")
    }

    @Test func radiusAndPopulationSurviveCodingAndCount() throws {
        let place = PlaceDescription(
            name: "Mitte", locality: "Berlin", subLocality: "Mitte", isoCountryCode: "DE",
            latitude: 52.52, longitude: 13.405, radius: 7_000, population: 98_000)
        let decoded = try JSONDecoder().decode(PlaceDescription.self, from: JSONEncoder().encode(place))
        #expect(decoded == place)
        #expect(decoded.radius == 7_000 && decoded.population == 98_000)

        var other = place
        other.population = nil
        #expect(other != place)
        #expect(Set([place, other, decoded]).count == 2)
    }
}
