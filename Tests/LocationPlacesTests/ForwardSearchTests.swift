import Testing
@testable import LocationPlaces

/// Forward geocoding: folded names, qualifiers (country, subdivision), ranking by match quality, region
/// and population.
@Suite struct ForwardSearchTests {
    @Test func parisIsParisFranceFirst() throws {
        let database = try packageDatabase()
        let results = database.search("Paris")
        let first = try #require(results.first)
        #expect(first.locality == "Paris")
        #expect(first.name == "Paris")
        #expect(first.isoCountryCode == "FR")
        #expect(first.administrativeArea == "Île-de-France")
        #expect(first.timeZoneIdentifier == "Europe/Paris")
        // The place's own coordinate (from its unit vector), not a query point.
        #expect(abs(first.latitude - 48.8534) < 0.01 && abs(first.longitude - 2.3488) < 0.01)
        let population = try #require(first.population)
        #expect(population > 2_000_000)
        #expect(first.radius == 20 * Double(population).squareRoot())
        // Places named Paris come first, by population; places that only have "Paris" as an alternate name
        // after them; no place twice.
        #expect(results.count == 10)
        let named = results.prefix { $0.locality == "Paris" }
        #expect(named.count >= 3)
        #expect(!results.dropFirst(named.count).contains { $0.locality == "Paris" })
        let populations = named.map { $0.population ?? 0 }
        #expect(populations == populations.sorted(by: >))
        #expect(Set(results).count == results.count)
    }

    @Test(arguments: ["Paris, Texas", "Paris, TX", "paris ,texas", "Paris, Texas, USA", "Paris, United States", "Paris, US"])
    func parisTexas(_ text: String) throws {
        let database = try packageDatabase()
        let first = try #require(database.search(text).first)
        #expect(first.locality == "Paris")
        #expect(first.isoCountryCode == "US")
        if !text.hasSuffix("States"), !text.hasSuffix("US") {
            #expect(first.administrativeArea == "Texas")
        }
    }

    @Test func aQualifierNoPlaceSatisfiesFindsNothing() throws {
        let database = try packageDatabase()
        #expect(database.search("Paris, Japan").isEmpty)
        #expect(database.search("Paris, Nowhereland").isEmpty)
    }

    @Test(arguments: ["Munich", "munich", "MUNICH", "  Munich  ", "Munich, Germany", "Munich, DE", "Munich, Bavaria"])
    func munich(_ text: String) throws {
        let database = try packageDatabase()
        let first = try #require(database.search(text).first)
        #expect(first.locality == "Munich")
        #expect(first.isoCountryCode == "DE")
        #expect(first.administrativeArea == "Bavaria")
    }

    /// Local spellings of large cities: places of 500,000 people or more keep every Latin-script
    /// alternate name GeoNames has.
    @Test(arguments: [("München", "Munich", "DE"), ("Muenchen", "Munich", "DE"), ("Cologne", "Köln", "DE"),
                      ("Wien", "Vienna", "AT"), ("Roma", "Rome", "IT"), ("Moskau", "Moscow", "RU")])
    func localSpellings(_ text: String, _ locality: String, _ country: String) throws {
        let database = try packageDatabase()
        let first = try #require(database.search(text).first)
        #expect(first.locality == locality)
        #expect(first.isoCountryCode == country)
    }

    @Test func accentsAndCaseFoldAway() throws {
        let database = try packageDatabase()
        for text in ["Reykjavik", "REYKJAVÍK", "reykjavík"] {
            #expect(database.search(text).first?.isoCountryCode == "IS", "\(text)")
        }
        for text in ["Sao Paulo", "São Paulo", "SÃO  PAULO"] {
            let first = try #require(database.search(text).first)
            #expect(first.isoCountryCode == "BR" && first.administrativeArea == "São Paulo", "\(text)")
        }
        #expect(database.search("Zurich").first?.locality == "Zürich")
    }

    @Test func springfieldPrefersTheRegion() throws {
        let database = try packageDatabase()
        let illinois = SearchRegion(latitude: 39.8, longitude: -89.65, radius: 100_000)
        let first = try #require(database.search("Springfield", preferring: illinois).first)
        #expect(first.locality == "Springfield")
        #expect(first.administrativeArea == "Illinois")
        // Without the region the largest Springfield comes first, and it is not Illinois'.
        let unbiased = try #require(database.search("Springfield").first)
        #expect(unbiased.administrativeArea != "Illinois")
        #expect(database.search("Springfield, Illinois").first?.administrativeArea == "Illinois")
        #expect(database.search("Springfield, IL").first?.administrativeArea == "Illinois")
    }

    @Test func exactNamesComeBeforePrefixes() throws {
        let database = try packageDatabase()
        // "Rome" is a whole name; places that merely start with it (Romeoville…) must not come first.
        let rome = try #require(database.search("Rome").first)
        #expect(rome.locality == "Rome" && rome.isoCountryCode == "IT")
        // A prefix alone still finds places, largest first.
        let prefix = database.search("Johannesbu")
        #expect(prefix.first?.locality == "Johannesburg")
        #expect(prefix.first?.isoCountryCode == "ZA")
        // Two characters are too short for a prefix search.
        #expect(database.search("Jx").isEmpty)
    }

    @Test func theLimitIsHonoured() throws {
        let database = try packageDatabase()
        #expect(database.search("Paris", limit: 5).count == 5)
        #expect(database.search("Springf", limit: 4).count == 4)  // prefix matches
        #expect(database.search("Springfield", limit: 2).count == 2)
    }
}
