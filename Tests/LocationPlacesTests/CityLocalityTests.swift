import Testing
@testable import LocationPlaces
import SeededRandom

/// Cities as Apple names them: in a city's district the locality is the city and the district is the
/// sub-locality (docs/places-database.md, "Municipalities and sections"), on every continent.
@Suite("City localities")
struct CityLocalityTests {
    struct District: CustomTestStringConvertible, Sendable {
        let label: String
        let latitude: Double
        let longitude: Double
        let locality: String
        /// `nil`: the point's nearest place is the municipality itself.
        let subLocality: String?
        let iso: String
        var testDescription: String { label }
    }

    static let districts: [District] = [
        // Europe
        .init(label: "Paris 11e", latitude: 48.859, longitude: 2.38, locality: "Paris",
              subLocality: "Paris 11e Arrondissement", iso: "FR"),
        .init(label: "Berlin-Kreuzberg", latitude: 52.4975, longitude: 13.41, locality: "Berlin",
              subLocality: "Kreuzberg", iso: "DE"),
        // London's boroughs (their seats GeoNames' PPLA3 in Greater London) are sections of London.
        .init(label: "London, Camden", latitude: 51.539, longitude: -0.1426, locality: "London",
              subLocality: "Camden Town", iso: "GB"),
        // Asia
        .init(label: "Seoul, Gangnam", latitude: 37.4979, longitude: 127.0276, locality: "Seoul",
              subLocality: "Yongsan-dong", iso: "KR"),
        .init(label: "Mumbai, Dharavi", latitude: 19.04, longitude: 72.855, locality: "Mumbai",
              subLocality: "Dhārāvi", iso: "IN"),
        // Tokyo's special wards are municipalities, and Apple names the ward as the locality (and the
        // neighbourhood as the sub-locality).
        .init(label: "Tokyo, Shibuya ward", latitude: 35.6595, longitude: 139.7005, locality: "Shibuya",
              subLocality: "Sakuragaokachō", iso: "JP"),
        // Africa
        .init(label: "Cairo, Zamalek", latitude: 30.06, longitude: 31.22, locality: "Cairo",
              subLocality: "Būlāq Abū al ‘Ilā", iso: "EG"),
        .init(label: "Nairobi, Westlands", latitude: -1.265, longitude: 36.81, locality: "Nairobi",
              subLocality: nil, iso: "KE"),
        .init(label: "Lagos, Shomolu", latitude: 6.5244, longitude: 3.3792, locality: "Lagos",
              subLocality: "Shomolu", iso: "NG"),
        // Americas
        .init(label: "Mexico City, Gustavo A. Madero", latitude: 19.4847, longitude: -99.1133,
              locality: "Mexico City", subLocality: "Gustavo Adolfo Madero", iso: "MX"),
        .init(label: "Buenos Aires, Palermo", latitude: -34.58, longitude: -58.42, locality: "Buenos Aires",
              subLocality: "Colegiales", iso: "AR"),
        .init(label: "São Paulo, Sé", latitude: -23.5505, longitude: -46.6333, locality: "São Paulo",
              subLocality: "Se", iso: "BR"),
        // GeoNames calls New York "New York City"; Apple says "New York".
        .init(label: "New York, Times Square", latitude: 40.758, longitude: -73.9855, locality: "New York City",
              subLocality: "Times Square", iso: "US"),
        // Brooklyn is the seat of Kings County (PPLA2), a municipality in GeoNames; Apple too names
        // Brooklyn as the locality of Brooklyn addresses.
        .init(label: "Brooklyn", latitude: 40.6501, longitude: -73.9496, locality: "Brooklyn",
              subLocality: nil, iso: "US"),
        // Oceania: Australian suburbs are the localities of addresses, as Apple names them.
        .init(label: "Sydney CBD", latitude: -33.8688, longitude: 151.2093, locality: "Sydney",
              subLocality: nil, iso: "AU"),
        .init(label: "Bondi Beach", latitude: -33.8915, longitude: 151.2767, locality: "Bondi Beach",
              subLocality: nil, iso: "AU"),
    ]

    @Test(arguments: districts)
    func districtNamesItsCity(_ expected: District) throws {
        let database = try packageDatabase()
        let place = try #require(database.reverseGeocode(latitude: expected.latitude, longitude: expected.longitude))
        #expect(place.locality == expected.locality)
        #expect(place.subLocality == expected.subLocality)
        #expect(place.name == (expected.subLocality ?? expected.locality))
        #expect(place.isoCountryCode == expected.iso)
    }

    @Test func subdivisionsOfBothLevels() throws {
        let database = try packageDatabase()
        let paris = try #require(database.reverseGeocode(latitude: 48.859, longitude: 2.38))
        #expect(paris.administrativeArea == "Île-de-France")
        #expect(paris.subAdministrativeArea == "Paris")
        let vincennes = try #require(database.reverseGeocode(latitude: 48.8486, longitude: 2.4377))
        #expect(vincennes.locality == "Vincennes")
        #expect(vincennes.subLocality == nil)
        #expect(vincennes.subAdministrativeArea == "Val-de-Marne")
    }

    @Test func districtsOfOneCityShareItsKey() throws {
        let database = try packageDatabase()
        let eleventh = try #require(database.localityKey(latitude: 48.859, longitude: 2.38))
        let montmartre = try #require(database.localityKey(latitude: 48.8867, longitude: 2.3431))
        let vincennes = try #require(database.localityKey(latitude: 48.8486, longitude: 2.4377))
        #expect(eleventh == montmartre)
        #expect(eleventh != vincennes)
        #expect(eleventh.country == vincennes.country)
        #expect(database.isoCountryCode(country: eleventh.country) == "FR")
        #expect(eleventh.locality.flatMap(database.placeName) == "Paris")
        #expect(database.isoCountryCode(country: -1) == nil)
        #expect(database.isoCountryCode(country: database.countryCount) == nil)
        #expect(database.placeName(database.placeCount) == nil)
    }

    @Test func keyMatchesTheGeocodedLocality() throws {
        let database = try packageDatabase()
        for district in Self.districts {
            let key = try #require(database.localityKey(latitude: district.latitude, longitude: district.longitude))
            #expect(key.locality.flatMap(database.placeName) == district.locality, "\(district.label)")
        }
    }

    @Test func keyAtSeaAndOutsideTheDomain() throws {
        let database = try packageDatabase()
        #expect(database.localityKey(latitude: 0, longitude: -30) == nil)
        #expect(database.localityKey(latitude: .nan, longitude: 0) == nil)
        #expect(database.localityKey(latitude: 91, longitude: 0) == nil)
        // The Sahara: a country, no place within 50 km.
        let desert = try #require(database.localityKey(latitude: 23.5, longitude: 12.5))
        #expect(desert.locality == nil)
        #expect(database.isoCountryCode(country: desert.country) != nil)
    }

    @Test func populationNearGrowsWithTheCity() throws {
        let database = try packageDatabase()
        let paris = database.populationNear(latitude: 48.8566, longitude: 2.3522, radius: 10_000)
        // Paris itself (2,138,551) and the suburbs within 10 km.
        #expect(paris > 2_138_551)
        #expect(paris > database.populationNear(latitude: 48.8566, longitude: 2.3522, radius: 2_000))
        let countryside = database.populationNear(latitude: 46.0, longitude: 2.0, radius: 10_000)
        #expect(countryside < paris / 20)
        #expect(database.populationNear(latitude: 0, longitude: -30, radius: 50_000) == 0)
        #expect(database.populationNear(latitude: 48.8566, longitude: 2.3522, radius: 0) == 0)
        #expect(database.populationNear(latitude: .nan, longitude: 2, radius: 10_000) == 0)
        #expect(database.populationNear(latitude: 48.8566, longitude: 2.3522, radius: -5) == 0)
    }

    /// Strasbourg and Kehl face each other across the Rhine: a circle around the bridge counts both
    /// countries' places.
    @Test func populationNearCrossesBorders() throws {
        let database = try packageDatabase()
        let both = database.populationNear(latitude: 48.5735, longitude: 7.7957, radius: 6_000)
        let strasbourgIndex = try #require(database.localityKey(latitude: 48.5734, longitude: 7.7521)?.locality)
        let kehlIndex = try #require(database.localityKey(latitude: 48.5725, longitude: 7.8155)?.locality)
        let strasbourg = try #require(database.placeCoordinate(strasbourgIndex))
        let kehl = try #require(database.placeCoordinate(kehlIndex))
        #expect(both >= strasbourg.population + kehl.population)
    }

    /// The sum equals a brute-force count over every place of a country's k-d range (all but one place,
    /// far out at sea), at random points.
    @Test func populationNearMatchesAScanOfEveryPlace() throws {
        let database = try packageDatabase()
        var counted = [Bool](repeating: false, count: database.placeCount)
        for country in 0..<database.countryCount {
            let start = database.tables.countryPlaceStart(country)
            for place in start..<(start + database.tables.countryPlaceCount(country)) { counted[place] = true }
        }
        var generator = SplitMix64(seed: 0xD0_5E)
        for _ in 0..<40 {
            let (latitude, longitude) = randomPoint(&generator)
            let radius = Double.random(in: 1_000...80_000, using: &generator)
            let target = PlacesTables.unitVector(latitude: latitude, longitude: longitude)
            let chord = Float(chordLength(metres: radius))
            var expected = 0
            for place in 0..<database.placeCount {
                let delta = database.tables.vector(place) - target
                if (delta * delta).sum() <= chord * chord && counted[place] {
                    expected += Int(database.tables.placePopulation(place))
                }
            }
            #expect(database.populationNear(latitude: latitude, longitude: longitude, radius: radius) == expected)
        }
    }
}
