import Testing
@testable import LocationPlaces

/// Points at sea: the water body by the documented rules, a country only within 12 nautical miles of its
/// coast, the nautical time zone beyond.
@Suite struct SeaAndWaterTests {
    @Test(arguments: [
        ("mid-Atlantic", 30.0, -40.0, "Atlantic Ocean", "Etc/GMT+3"),
        ("South Atlantic", -30.0, -15.0, "Atlantic Ocean", "Etc/GMT+1"),
        ("mid-Pacific east of 180°", 0.0, 179.5, "Pacific Ocean", "Etc/GMT-12"),
        ("mid-Pacific west of 180°", 0.0, -179.5, "Pacific Ocean", "Etc/GMT+12"),
        ("North Pacific", 35.0, -150.0, "Pacific Ocean", "Etc/GMT+10"),
        ("Indian Ocean", -20.0, 80.0, "Indian Ocean", "Etc/GMT-5"),
        ("Arabian Sea", 15.0, 65.0, "Indian Ocean", "Etc/GMT-4"),
        ("Arctic", 80.0, 0.0, "Arctic Ocean", "Etc/GMT"),
        ("Southern Ocean", -65.0, 0.0, "Southern Ocean", "Etc/GMT"),
        ("Mediterranean", 35.0, 18.0, "Mediterranean Sea", "Etc/GMT-1"),
        ("Black Sea", 43.0, 34.0, "Black Sea", "Etc/GMT-2"),
        ("Red Sea", 20.0, 38.5, "Red Sea", "Etc/GMT-3"),
        ("Persian Gulf", 27.0, 51.0, "Persian Gulf", "Etc/GMT-3"),
        ("Baltic Sea", 56.0, 19.0, "Baltic Sea", "Etc/GMT-1"),
        ("North Sea", 56.0, 3.0, "North Sea", "Etc/GMT"),
        ("Caribbean Sea", 15.0, -75.0, "Caribbean Sea", "Etc/GMT+5"),
        ("Gulf of Mexico", 25.0, -90.0, "Gulf of Mexico", "Etc/GMT+6"),
    ])
    func openSea(label: String, latitude: Double, longitude: Double, ocean: String, zone: String) throws {
        let database = try packageDatabase()
        let place = try #require(database.reverseGeocode(latitude: latitude, longitude: longitude))
        #expect(place.ocean == ocean)
        #expect(place.name == ocean)
        #expect(place.inlandWater == nil)
        #expect(place.isoCountryCode == nil && place.country == nil && place.locality == nil)
        #expect(place.timeZoneIdentifier == zone)
        #expect(place.radius == 0)
        #expect(database.reverseLookup(latitude: latitude, longitude: longitude)?.surface == .sea)
    }

    @Test func theCaspianIsInlandWater() throws {
        let database = try packageDatabase()
        let place = try #require(database.reverseGeocode(latitude: 42, longitude: 50.5))
        #expect(place.inlandWater == "Caspian Sea")
        #expect(place.ocean == nil)
        #expect(place.name == "Caspian Sea")
    }

    /// ~4.6 km off Sydney's coast: Australia's territorial sea, no locality; ~55 km off: no country.
    @Test func territorialSeaReachesTwelveNauticalMiles() throws {
        let database = try packageDatabase()
        let near = try #require(database.reverseGeocode(latitude: -33.8688, longitude: 151.33))
        #expect(near.isoCountryCode == "AU")
        #expect(near.locality == nil)
        #expect(near.ocean == "Pacific Ocean")
        #expect(near.name == "Pacific Ocean")
        #expect(near.timeZoneIdentifier == "Australia/Sydney")
        #expect(database.reverseLookup(latitude: -33.8688, longitude: 151.33)?.surface == .territorialSea)

        let far = try #require(database.reverseGeocode(latitude: -33.8688, longitude: 151.9))
        #expect(far.isoCountryCode == nil)
        #expect(far.ocean == "Pacific Ocean")
        #expect(far.timeZoneIdentifier == "Etc/GMT-10")
    }

    /// Off Brest, France: 10 km out is French water, 40 km out is not.
    @Test func offBrittany() throws {
        let database = try packageDatabase()
        let near = try #require(database.reverseGeocode(latitude: 48.35, longitude: -4.92))
        #expect(near.isoCountryCode == "FR")
        #expect(near.locality == nil)
        #expect(near.ocean == "Atlantic Ocean")
        let far = try #require(database.reverseGeocode(latitude: 48.35, longitude: -5.4))
        #expect(far.isoCountryCode == nil)
    }

    @Test(arguments: [
        (0.0, "Etc/GMT"), (7.49, "Etc/GMT"), (7.5, "Etc/GMT-1"), (-75.0, "Etc/GMT+5"), (-82.4, "Etc/GMT+5"),
        (172.4, "Etc/GMT-11"), (172.5, "Etc/GMT-12"), (179.99, "Etc/GMT-12"), (-179.99, "Etc/GMT+12"),
        (-180.0, "Etc/GMT+12"),
    ])
    func nauticalTimeZones(longitude: Double, zone: String) {
        #expect(WaterBody.nauticalTimeZone(longitude: longitude) == zone)
    }
}
