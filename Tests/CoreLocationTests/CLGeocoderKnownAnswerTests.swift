import CoreLocation
import Foundation
import LocationPlaces
import Testing

/// `CLGeocoder()` on the shipped places database: known answers across continents, through the
/// public API only.
///
/// Enabled when the database opens; that it always does in this package is `LocationPlacesTests`'
/// business (and `locationctl reverse` would exit 69 otherwise).
@Suite(.enabled(if: KnownAnswers.databaseOpens), .timeLimit(.minutes(2)))
struct CLGeocoderKnownAnswerTests {
    private func reverse(_ latitude: Double, _ longitude: Double, locale: String = "en_US") async throws -> CLPlacemark {
        let placemarks = try await CLGeocoder().reverseGeocodeLocation(
            CLLocation(latitude: latitude, longitude: longitude), preferredLocale: Locale(identifier: locale))
        #expect(placemarks.count == 1)
        return try #require(placemarks.first)
    }

    @Test func berlin() async throws {
        let placemark = try await reverse(52.52437, 13.41053)
        #expect(placemark.locality == "Berlin")
        #expect(placemark.isoCountryCode == "DE")
        #expect(placemark.country == "Germany")
        #expect(placemark.timeZone?.identifier == "Europe/Berlin")
        #expect(placemark.ocean == nil)
        #expect(placemark.location?.coordinate.latitude == 52.52437, "reverse geocoding keeps the queried point")
    }

    @Test func aDistrictIsTheSubLocalityOfItsCity() async throws {
        // As Apple answers: locality "Berlin", subLocality "Mitte". GeoNames lists Berlin's districts as
        // populated places; the nearest one is a section of Berlin (docs/places-database.md).
        let berlin = try await reverse(52.52, 13.405)
        #expect(berlin.locality == "Berlin")
        #expect(berlin.subLocality == "Mitte")
        #expect(berlin.name == "Mitte")
        #expect(berlin.administrativeArea == "State of Berlin")
        #expect(berlin.isoCountryCode == "DE")
        #expect(berlin.addressDictionary?["SubLocality"] as? String == "Mitte")
    }

    @Test func countriesInTheLocale() async throws {
        #expect(try await reverse(52.52, 13.405, locale: "de_DE").country == "Deutschland")
        #expect(try await reverse(48.8566, 2.3522, locale: "de_DE").country == "Frankreich")
    }

    @Test func otherContinents() async throws {
        let sydney = try await reverse(-33.8688, 151.2093)
        #expect(sydney.isoCountryCode == "AU")
        #expect(sydney.timeZone?.identifier == "Australia/Sydney")
        let saoPaulo = try await reverse(-23.5505, -46.6333)
        #expect(saoPaulo.isoCountryCode == "BR")
        let nairobi = try await reverse(-1.2921, 36.8219)
        #expect(nairobi.isoCountryCode == "KE")
    }

    @Test func seaPointsHaveAnOceanAndNoLocality() async throws {
        let placemark = try await reverse(30, -40)
        #expect(placemark.ocean != nil)
        #expect(placemark.locality == nil)
        #expect(placemark.isoCountryCode == nil, "far from every coast")
    }

    @Test func paris() async throws {
        let placemarks = try await CLGeocoder().geocodeAddressString("Paris")
        let first = try #require(placemarks.first)
        #expect(first.isoCountryCode == "FR")
        #expect(first.locality == "Paris")
        #expect(first.timeZone?.identifier == "Europe/Paris")
        let coordinate = try #require(first.location?.coordinate)
        #expect(abs(coordinate.latitude - 48.85) < 0.1 && abs(coordinate.longitude - 2.35) < 0.1)
    }

    @Test func theRegionHintPrefersTheNearbyPlace() async throws {
        let texas = CLCircularRegion(
            center: CLLocationCoordinate2D(latitude: 33.66, longitude: -95.55), radius: 50_000, identifier: "paris-tx")
        let placemarks = try await CLGeocoder().geocodeAddressString("Paris", in: texas)
        #expect(placemarks.first?.isoCountryCode == "US")
    }

    @Test func nothingFoundIsGeocodeFoundNoResult() async throws {
        await #expect(throws: CLError(.geocodeFoundNoResult)) {
            try await CLGeocoder().geocodeAddressString("Qxqxqxqx Zzyzzyzx")
        }
    }
}

enum KnownAnswers {
    static var databaseOpens: Bool {
        if case .success = PlacesDatabase.shared { return true }
        return false
    }
}
