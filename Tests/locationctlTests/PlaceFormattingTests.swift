import Foundation
import LocationPlaces
import Testing
@testable import locationctl

/// The text line and JSON of `locationctl reverse`/`geocode`, from known places.
@Suite struct PlaceFormattingTests {
    static let berlin = PlaceDescription(
        name: "Berlin", locality: "Berlin", administrativeArea: "Berlin", country: "Germany",
        isoCountryCode: "DE", timeZoneIdentifier: "Europe/Berlin", latitude: 52.52, longitude: 13.405, radius: 30_000)
    static let sea = PlaceDescription(
        name: "North Sea", country: "Germany", isoCountryCode: "DE", ocean: "North Sea",
        latitude: 54.1, longitude: 7.9, radius: 22_224)

    @Test func theLineNamesPlaceSubdivisionCountryZoneAndCoordinate() {
        #expect(PlaceFormatting.line(Self.berlin, locale: Locale(identifier: "en_US"))
            == "Berlin, Berlin, Germany (DE) · Europe/Berlin · 52.52000, 13.40500")
        #expect(PlaceFormatting.line(Self.berlin, locale: Locale(identifier: "de"))
            == "Berlin, Berlin, Deutschland (DE) · Europe/Berlin · 52.52000, 13.40500")
        #expect(PlaceFormatting.line(Self.sea, locale: Locale(identifier: "en_US"))
            == "North Sea, Germany (DE) · 54.10000, 7.90000")
        let ocean = PlaceDescription(name: "Atlantic", ocean: "Atlantic", latitude: -30, longitude: -20.5, radius: 1)
        #expect(PlaceFormatting.line(ocean, locale: Locale(identifier: "en_US")) == "Atlantic · -30.00000, -20.50000")
    }

    @Test func jsonUsesCLPlacemarksNamesAndLeavesNilOut() throws {
        let text = try PlaceFormatting.json(PlaceFormatting.placemark(Self.berlin, locale: Locale(identifier: "de")))
        #expect(!text.contains("\n"), "one line")
        #expect(text.contains("\"Europe/Berlin\""), "slashes unescaped: \(text)")
        #expect(text.hasPrefix("{\"administrativeArea\":\"Berlin\",\"country\":"), "keys sorted: \(text)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == [
            "name", "locality", "administrativeArea", "country", "isoCountryCode", "timeZone", "location", "region",
        ])
        #expect(object["country"] as? String == "Deutschland")
        #expect(object["location"] as? [String: Double] == ["latitude": 52.52, "longitude": 13.405])
        #expect(object["region"] as? [String: Double] == ["latitude": 52.52, "longitude": 13.405, "radius": 30_000])

        let sea = try #require(try JSONSerialization.jsonObject(
            with: Data(try PlaceFormatting.json([PlaceFormatting.placemark(Self.sea, locale: Locale(identifier: "en"))]).utf8))
            as? [[String: Any]])
        #expect(sea.first?["ocean"] as? String == "North Sea")
        #expect(sea.first?["locality"] == nil)
    }

    @Test func anUnknownCountryCodeKeepsTheDatabasesName() {
        var place = Self.berlin
        place.isoCountryCode = "ZZ"
        place.country = "Nowhere"
        #expect(place.country(in: Locale(identifier: "de")) == "Nowhere")
    }
}
