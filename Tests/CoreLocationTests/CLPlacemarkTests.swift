import CoreLocation
import Foundation
import LocationPlaces
import Testing

/// `CLPlacemark`'s values from a places-database answer, copying, coding.
@Suite struct CLPlacemarkTests {
    private func berlin(locale: String = "en_US") -> CLPlacemark {
        CLPlacemark(place: .berlin, locale: Locale(identifier: locale), timestamp: Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func fieldsComeFromThePlace() throws {
        let placemark = berlin()
        #expect(placemark.name == "Berlin")
        #expect(placemark.locality == "Berlin")
        #expect(placemark.administrativeArea == "Berlin")
        #expect(placemark.subAdministrativeArea == nil)
        #expect(placemark.isoCountryCode == "DE")
        #expect(placemark.country == "Germany")
        #expect(placemark.timeZone == TimeZone(identifier: "Europe/Berlin"))
        #expect(placemark.ocean == nil && placemark.inlandWater == nil)
        // Beyond the offline database.
        #expect(placemark.thoroughfare == nil && placemark.subThoroughfare == nil)
        #expect(placemark.subLocality == nil && placemark.postalCode == nil && placemark.areasOfInterest == nil)
    }

    @Test func locationAndRegionAreTheCoordinateAndTheRadius() throws {
        let placemark = berlin()
        let location = try #require(placemark.location)
        #expect(location.coordinate.latitude == 52.52 && location.coordinate.longitude == 13.405)
        #expect(location.horizontalAccuracy == 30_000)
        #expect(location.verticalAccuracy < 0)
        #expect(location.timestamp == Date(timeIntervalSince1970: 1_700_000_000))
        let region = try #require(placemark.region as? CLCircularRegion)
        #expect(region.center.latitude == 52.52 && region.center.longitude == 13.405)
        #expect(region.radius == 30_000)
        #expect(region.identifier == "<+52.52000000,+13.40500000> radius 30000.00")
        #expect(region.contains(CLLocationCoordinate2D(latitude: 52.4, longitude: 13.3)))
    }

    @Test func regionIdentifierSignsBothHemispheres() throws {
        let sydney = PlaceDescription(
            name: "Sydney", locality: "Sydney", isoCountryCode: "AU", latitude: -33.86785, longitude: 151.20732, radius: 25_000.5)
        let placemark = CLPlacemark(place: sydney, locale: Locale(identifier: "en"))
        #expect(placemark.region?.identifier == "<-33.86785000,+151.20732000> radius 25000.50")
    }

    @Test func aSeaPointHasAnOceanAndNoLocality() throws {
        let placemark = CLPlacemark(place: .northAtlantic, locale: Locale(identifier: "en"))
        #expect(placemark.ocean == "North Atlantic Ocean")
        #expect(placemark.name == "North Atlantic Ocean")
        #expect(placemark.locality == nil && placemark.country == nil && placemark.isoCountryCode == nil)
        #expect(placemark.timeZone == nil)
    }

    @Test func anUnknownTimeZoneOrABadRadiusDoesNotBreakThePlacemark() throws {
        var place = PlaceDescription.berlin
        place.timeZoneIdentifier = "Mars/Olympus_Mons"
        place.radius = .nan
        let placemark = CLPlacemark(place: place, locale: Locale(identifier: "en"))
        #expect(placemark.timeZone == nil)
        #expect(placemark.location?.horizontalAccuracy == 0)
        #expect((placemark.region as? CLCircularRegion)?.radius == 0)
    }

    @Test func theCountryIsNamedInTheLocale() {
        #expect(berlin(locale: "de_DE").country == "Deutschland")
        #expect(berlin(locale: "ja").country == "ドイツ")
        #expect(berlin(locale: "de_DE").isoCountryCode == "DE", "the code never changes")
    }

    @Test func addressDictionaryHasTheAddressBookKeys() throws {
        let dictionary = try #require(callDeprecated(AddressDictionary(placemark: CLPlacemark(place: .paris, locale: Locale(identifier: "de")))))
        #expect(dictionary["Name"] as? String == "Paris")
        #expect(dictionary["City"] as? String == "Paris")
        #expect(dictionary["State"] as? String == "Île-de-France")
        #expect(dictionary["SubAdministrativeArea"] as? String == "Paris")
        #expect(dictionary["Country"] as? String == "Frankreich")
        #expect(dictionary["CountryCode"] as? String == "FR")
        #expect(dictionary["FormattedAddressLines"] as? [String] == ["Paris", "Île-de-France", "Frankreich"])
        #expect(dictionary["Street"] == nil && dictionary["ZIP"] == nil)
        #expect(callDeprecated(AddressDictionary(placemark: CLPlacemark())) == nil)
    }

    @Test func descriptionHasApplesShape() {
        #expect(berlin().description == "Berlin, Germany @ <+52.52000000,+13.40500000> +/- 30000.00m, region "
            + "CLCircularRegion (identifier:'<+52.52000000,+13.40500000> radius 30000.00', "
            + "center:<+52.52000000,+13.40500000>, radius:30000.00m)")
    }

    @Test func initPlacemarkCopiesTheValuesIncludingASubclasssOverrides() throws {
        final class MockPlacemark: CLPlacemark, @unchecked Sendable {
            override var locality: String? { "Springfield" }
            override var postalCode: String? { "62701" }
        }
        let copy = CLPlacemark(placemark: MockPlacemark())
        #expect(copy.locality == "Springfield")
        #expect(copy.postalCode == "62701")
        #expect(copy.name == nil)

        let original = berlin()
        let same = CLPlacemark(placemark: original)
        #expect(same !== original)
        #expect(same.description == original.description)
        #expect(same.timeZone == original.timeZone)
        #expect(original.copy() as? CLPlacemark === original, "immutable: a copy is the object itself")
    }

    @Test func secureCodingRoundTrips() throws {
        let original = CLPlacemark(place: .paris, locale: Locale(identifier: "fr"))
        let decoded = try #require(try archiveRoundTrip(original))
        #expect(decoded.name == "Paris")
        #expect(decoded.subAdministrativeArea == "Paris")
        #expect(decoded.administrativeArea == "Île-de-France")
        #expect(decoded.country == "France")
        #expect(decoded.isoCountryCode == "FR")
        #expect(decoded.timeZone?.identifier == "Europe/Paris")
        #expect(decoded.thoroughfare == nil)
        #expect(decoded.location?.coordinate.latitude == 48.85341)
        #expect(decoded.location?.horizontalAccuracy == 20_000)
        #expect(decoded.region?.identifier == original.region?.identifier)
        #expect((decoded.region as? CLCircularRegion)?.radius == 20_000)

        let empty = try #require(try archiveRoundTrip(CLPlacemark()))
        #expect(empty.name == nil && empty.location == nil && empty.region == nil && empty.timeZone == nil)
    }
}

/// `addressDictionary` is deprecated on Apple platforms; reading it through this keeps tests
/// warning-free there too.
private struct AddressDictionary: DeprecatedAPICall {
    let placemark: CLPlacemark
    @available(*, deprecated)
    func call() -> [AnyHashable: Any]? { placemark.addressDictionary }
}
