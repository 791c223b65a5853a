import Testing
@testable import LocationPlaces

/// Known answers from the package's database: the country from the polygons, the locality as the nearest
/// GeoNames place in it (its own country code), the subdivision and time zone of that place.
@Suite struct ReverseGeocodingTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        let label: String
        let latitude: Double
        let longitude: Double
        let locality: String?
        let administrativeArea: String?
        let iso: String
        let timeZone: String?
        var testDescription: String { label }
    }

    static let cities: [Expected] = [
        // Every continent.
        .init(label: "Nairobi", latitude: -1.28333, longitude: 36.81667, locality: "Nairobi",
              administrativeArea: "Nairobi County", iso: "KE", timeZone: "Africa/Nairobi"),
        .init(label: "São Paulo", latitude: -23.5475, longitude: -46.63611, locality: "São Paulo",
              administrativeArea: "São Paulo", iso: "BR", timeZone: "America/Sao_Paulo"),
        .init(label: "Sydney", latitude: -33.86785, longitude: 151.20732, locality: "Sydney",
              administrativeArea: "New South Wales", iso: "AU", timeZone: "Australia/Sydney"),
        .init(label: "Berlin", latitude: 52.52437, longitude: 13.41053, locality: "Berlin",
              administrativeArea: "State of Berlin", iso: "DE", timeZone: "Europe/Berlin"),
        .init(label: "Tokyo", latitude: 35.6895, longitude: 139.69171, locality: "Tokyo",
              administrativeArea: "Tōkyō", iso: "JP", timeZone: "Asia/Tokyo"),
        .init(label: "Denver", latitude: 39.73915, longitude: -104.9847, locality: "Denver",
              administrativeArea: "Colorado", iso: "US", timeZone: "America/Denver"),
        .init(label: "Reykjavík", latitude: 64.13548, longitude: -21.89541, locality: "Reykjavík",
              administrativeArea: "Capital Region", iso: "IS", timeZone: "Atlantic/Reykjavik"),
        // Border towns: each side of the Rhine, of the US–Mexico border, of the Estonian–Latvian one.
        .init(label: "Strasbourg", latitude: 48.5734, longitude: 7.7521, locality: "Strasbourg",
              administrativeArea: "Grand Est", iso: "FR", timeZone: "Europe/Paris"),
        .init(label: "Kehl", latitude: 48.5725, longitude: 7.8155, locality: "Kehl",
              administrativeArea: "Baden-Württemberg", iso: "DE", timeZone: "Europe/Berlin"),
        .init(label: "Tijuana", latitude: 32.5149, longitude: -117.0382, locality: "Tijuana",
              administrativeArea: "Baja California", iso: "MX", timeZone: "America/Tijuana"),
        .init(label: "San Diego", latitude: 32.7157, longitude: -117.1611, locality: "San Diego",
              administrativeArea: "California", iso: "US", timeZone: "America/Los_Angeles"),
        .init(label: "Ciudad Juárez", latitude: 31.6904, longitude: -106.4245, locality: "Ciudad Juárez",
              administrativeArea: "Chihuahua", iso: "MX", timeZone: "America/Ciudad_Juarez"),
        .init(label: "El Paso", latitude: 31.7619, longitude: -106.4850, locality: "El Paso",
              administrativeArea: "Texas", iso: "US", timeZone: "America/Denver"),
        .init(label: "Valga", latitude: 57.7778, longitude: 26.0473, locality: "Valga",
              administrativeArea: "Valgamaa", iso: "EE", timeZone: "Europe/Tallinn"),
        .init(label: "Valka", latitude: 57.7750, longitude: 26.0180, locality: "Valka",
              administrativeArea: "Valka", iso: "LV", timeZone: "Europe/Riga"),
        // Islands; Saint-Denis is Réunion (RE) although Natural Earth draws it as part of France.
        .init(label: "Honolulu", latitude: 21.3069, longitude: -157.8583, locality: "Honolulu",
              administrativeArea: "Hawaii", iso: "US", timeZone: "Pacific/Honolulu"),
        .init(label: "Saint-Denis, Réunion", latitude: -20.8823, longitude: 55.4504, locality: "Saint-Denis",
              administrativeArea: "Réunion", iso: "RE", timeZone: "Indian/Reunion"),
        .init(label: "Hobart", latitude: -42.87936, longitude: 147.32941, locality: "Hobart",
              administrativeArea: "Tasmania", iso: "AU", timeZone: "Australia/Hobart"),
        .init(label: "Valletta", latitude: 35.8989, longitude: 14.5146, locality: "Valletta",
              administrativeArea: "Valletta", iso: "MT", timeZone: "Europe/Malta"),
        // The antimeridian: Fiji and Chukotka on both sides of it.
        .init(label: "Suva", latitude: -18.1416, longitude: 178.4419, locality: "Suva",
              administrativeArea: "Central", iso: "FJ", timeZone: "Pacific/Fiji"),
        .init(label: "Lakeba", latitude: -18.2, longitude: -178.8, locality: "Tubou",
              administrativeArea: "Eastern", iso: "FJ", timeZone: "Pacific/Fiji"),
        .init(label: "Anadyr", latitude: 64.7337, longitude: 177.5089, locality: "Anadyr",
              administrativeArea: "Chukotka", iso: "RU", timeZone: "Asia/Anadyr"),
        // High latitudes. Svalbard is Norway's in Natural Earth, SJ in GeoNames.
        .init(label: "Longyearbyen", latitude: 78.2232, longitude: 15.6267, locality: "Longyearbyen",
              administrativeArea: "Svalbard", iso: "SJ", timeZone: "Arctic/Longyearbyen"),
        .init(label: "Nuuk", latitude: 64.1814, longitude: -51.6941, locality: "Nuuk",
              administrativeArea: "Sermersooq", iso: "GL", timeZone: "America/Nuuk"),
    ]

    @Test(arguments: cities)
    func city(_ expected: Expected) throws {
        let database = try packageDatabase()
        let place = try #require(database.reverseGeocode(latitude: expected.latitude, longitude: expected.longitude))
        #expect(place.locality == expected.locality)
        #expect(place.name == expected.locality)
        #expect(place.administrativeArea == expected.administrativeArea)
        #expect(place.isoCountryCode == expected.iso)
        #expect(place.timeZoneIdentifier == expected.timeZone)
        #expect(place.ocean == nil && place.inlandWater == nil)
        #expect(place.latitude == expected.latitude && place.longitude == expected.longitude)
        let population = try #require(place.population)
        #expect(place.radius == min(30_000, max(500, 20 * Double(population).squareRoot())))
    }

    /// Places too small for GeoNames' cities1000: the country, no locality within 50 km.
    @Test(arguments: [
        ("Uelen, Chukotka (beyond 180°)", 66.1597, -169.81, "RU"),
        ("Alert, Nunavut", 82.5018, -62.3481, "CA"),
        ("Grise Fiord, Nunavut", 76.4180, -82.8940, "CA"),
    ])
    func remotePlaceGivesItsCountry(label: String, latitude: Double, longitude: Double, iso: String) throws {
        let database = try packageDatabase()
        let place = try #require(database.reverseGeocode(latitude: latitude, longitude: longitude))
        #expect(place.isoCountryCode == iso)
        #expect(place.locality == nil)
        #expect(place.name == place.country)
        #expect(place.ocean == nil)
        #expect(place.timeZoneIdentifier != nil)
    }

    @Test func mcMurdoIsAntarcticaWithoutALocality() throws {
        let database = try packageDatabase()
        let place = try #require(database.reverseGeocode(latitude: -77.8419, longitude: 166.6863))
        #expect(place.isoCountryCode == "AQ" || place.isoCountryCode == nil)
        #expect(place.locality == nil)
        let pole = try #require(database.reverseGeocode(latitude: -90, longitude: 0))
        #expect(pole.isoCountryCode == "AQ")
    }

    @Test func theNorthPoleIsTheArcticOcean() throws {
        let database = try packageDatabase()
        for longitude in [-180.0, 0, 123.4, 180] {
            let place = try #require(database.reverseGeocode(latitude: 90, longitude: longitude))
            #expect(place.ocean == "Arctic Ocean")
            #expect(place.isoCountryCode == nil)
            #expect(place.name == "Arctic Ocean")
        }
    }

    /// 180° and −180° are one meridian (Taveuni, Fiji, lies across it).
    @Test func longitude180IsLongitudeMinus180() throws {
        let database = try packageDatabase()
        let east = try #require(database.reverseGeocode(latitude: -16.8, longitude: 180))
        let west = try #require(database.reverseGeocode(latitude: -16.8, longitude: -180))
        #expect(east.isoCountryCode == "FJ")
        #expect(east == west)
        #expect(east.longitude == -180)
    }

    /// The lower level: indexes, and the polygon's country (France for Réunion).
    @Test func reverseLookupGivesThePolygonsCountryAndThePlace() throws {
        let database = try packageDatabase()
        let hit = try #require(database.reverseLookup(latitude: -20.8823, longitude: 55.4504))
        #expect(hit.surface == .land)
        #expect(hit.water == nil)
        #expect(try #require(hit.place) >= 0)
        #expect(database.polygonCountryCode(latitude: -20.8823, longitude: 55.4504) == "FR")
        #expect(database.polygonCountryCode(latitude: 0, longitude: -30) == nil)
    }

    /// The search bound is a literal; it must stay the squared float chord of the locality range.
    @Test func theLocalityBoundIsTheRangesChord() {
        let chord = Float(chordLength(metres: PlacesDatabase.localityRange))
        #expect(PlacesDatabase.localityChordSquared == chord * chord)
    }
}
