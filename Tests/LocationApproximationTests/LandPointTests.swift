import LocationPlaces
import LocationPolicy
import SeededRandom
import Testing
@testable import LocationApproximation

/// The acceptance figures on 10,000 seeded random land points: what an approximate app is told keeps
/// the country and the city and always holds the device.
@Suite struct LandPointTests {
    @Test func tenThousandRandomLandPointsKeepCountryAndCityAndAreHeldByTheRadius() throws {
        let database = try packageDatabase()
        let regions = PlaceApproximateRegions(database: database, seed: testSeed(1))
        var generator = SplitMix64(seed: 2026)
        var countryKept = 0, inCity = 0, cityKept = 0, radiusInRange = 0, held = 0
        var sources: [RegionPoint.Source?: Int] = [:]
        let count = 10_000
        for _ in 0..<count {
            let truth = randomLandPoint(&generator, in: database)
            let region = regions.region(latitude: truth.latitude, longitude: truth.longitude)
            let reported = database.reverseLookup(latitude: region.latitude, longitude: region.longitude)
            if reported?.polygonCountry == truth.hit.polygonCountry, reported?.surface == .land { countryKept += 1 }
            if let place = truth.hit.place {
                inCity += 1
                if reported?.place == place { cityKept += 1 }
            }
            if (1_000...20_000).contains(region.radius) { radiusInRange += 1 }
            if metres((truth.latitude, truth.longitude), (region.latitude, region.longitude)) <= region.radius { held += 1 }
            sources[regions.layout.entry(latitude: truth.latitude, longitude: truth.longitude)?.source, default: 0] += 1
        }
        #expect(countryKept == count, "country kept for \(countryKept) of \(count)")
        #expect(inCity > count / 2)
        #expect(Double(cityKept) >= 0.9 * Double(inCity), "city kept for \(cityKept) of \(inCity)")
        #expect(radiusInRange == count, "radius 1–20 km for \(radiusInRange) of \(count)")
        #expect(held == count, "truth within the radius for \(held) of \(count)")
        // The truth-dependent fallback (a country's sliver) stays the rare exception.
        #expect((sources[nil] ?? 0) <= count / 1000, "reported points by source: \(sources)")
    }

    @Test func denseCityRegionsAreOneToThreeKilometresAndEmptyLandLarger() throws {
        let database = try packageDatabase()
        let regions = PlaceApproximateRegions(database: database, seed: testSeed(3))
        let cities: [(String, Double, Double)] = [
            ("Paris", 48.8566, 2.3522), ("London", 51.5074, -0.1278), ("Tokyo", 35.6812, 139.7671),
            ("New York", 40.7128, -74.0060), ("Cairo", 30.0444, 31.2357), ("São Paulo", -23.5505, -46.6333),
            ("Lagos", 6.4550, 3.3841), ("Mumbai", 19.0760, 72.8777), ("Mexico City", 19.4326, -99.1332),
            ("Sydney", -33.8688, 151.2093), ("Berlin", 52.5200, 13.4050), ("Buenos Aires", -34.6037, -58.3816),
            ("Delhi", 28.6139, 77.2090), ("Jakarta", -6.2088, 106.8456),
            // 13 km from the one point that stands for a city of millions: its outskirts are dense too.
            ("Kinshasa, south", -4.4419, 15.2663),
        ]
        for (name, latitude, longitude) in cities {
            let region = regions.region(latitude: latitude, longitude: longitude)
            #expect((1_000...3_000).contains(region.radius), "\(name): radius \(region.radius) m")
        }
        let empty: [(String, Double, Double)] = [
            ("Sahara", 23.0, 12.0), ("Siberia", 65.0, 110.0), ("Outback", -25.0, 130.0),
            ("Antarctica", -80.0, 60.0), ("Greenland", 75.0, -40.0), ("Rub' al Khali", 20.0, 50.0),
        ]
        for (name, latitude, longitude) in empty {
            let region = regions.region(latitude: latitude, longitude: longitude)
            #expect((8_000...20_000).contains(region.radius), "\(name): radius \(region.radius) m")
        }
    }

    @Test func everyFixInARegionReportsTheSamePoint() throws {
        let database = try packageDatabase()
        let regions = PlaceApproximateRegions(database: database, seed: testSeed(4))
        var generator = SplitMix64(seed: 5)
        var byIdentity: [UInt64: ApproximateRegion] = [:]
        var repeated = 0
        for _ in 0..<200 {
            let centre = randomLandPoint(&generator, in: database)
            for _ in 0..<25 {
                let point = moved((centre.latitude, centre.longitude), azimuth: generator.uniform(0, 360),
                                  distance: generator.uniform(0, 3_000))
                let region = regions.region(latitude: point.latitude, longitude: point.longitude)
                if let earlier = byIdentity[region.id] {
                    repeated += 1
                    #expect(earlier == region)
                } else {
                    byIdentity[region.id] = region
                }
            }
        }
        #expect(repeated > 2_000, "most fixes fall in a region seen before: \(repeated)")
    }

    @Test func twoSeedsLayTheRegionsOutDifferently() throws {
        let database = try packageDatabase()
        let one = PlaceApproximateRegions(database: database, seed: testSeed(10))
        let other = PlaceApproximateRegions(database: database, seed: testSeed(11))
        #expect(one.layout.grid.latitudeShift != other.layout.grid.latitudeShift)
        var generator = SplitMix64(seed: 6)
        var samePoint = 0
        for _ in 0..<1_000 {
            let truth = randomLandPoint(&generator, in: database)
            let a = one.region(latitude: truth.latitude, longitude: truth.longitude)
            let b = other.region(latitude: truth.latitude, longitude: truth.longitude)
            #expect(a.id != b.id)
            if a.latitude == b.latitude, a.longitude == b.longitude { samePoint += 1 }
        }
        // Only where both fall back on the same locality's own point.
        #expect(samePoint <= 20, "\(samePoint) of 1,000 reported points agree")
    }

    @Test func positionsThatAreNoPositionReportNowhere() throws {
        let regions = PlaceApproximateRegions(database: try packageDatabase(), seed: testSeed(7))
        for (latitude, longitude) in [(Double.nan, 0.0), (0, .infinity), (91, 0), (0, -180.5), (-.infinity, .nan)] {
            #expect(regions.region(latitude: latitude, longitude: longitude) == PlaceApproximateRegions.nowhere)
        }
        let paris = regions.region(latitude: 48.8566, longitude: 2.3522)
        #expect(regions.region(latitude: .nan, longitude: 2, previous: paris) == paris)
    }
}

/// Regions asked for from many threads at once are the regions asked for one at a time.
@Suite struct ConcurrentRegionTests {
    @Test func concurrentQueriesAgreeWithSequentialOnes() async throws {
        let database = try packageDatabase()
        var generator = SplitMix64(seed: 60)
        let points = (0..<2_000).map { _ in
            let point = randomLandPoint(&generator, in: database)
            return (point.latitude, point.longitude)
        }
        let sequential = PlaceApproximateRegions(database: database, seed: testSeed(61))
        let expected = points.map { sequential.region(latitude: $0.0, longitude: $0.1) }
        let shared = PlaceApproximateRegions(database: database, seed: testSeed(61))
        let results = await withTaskGroup(of: (Int, [ApproximateRegion]).self) { group in
            for task in 0..<8 {
                group.addTask {
                    // Each task walks the points from its own starting place, so tasks build regions at once.
                    (task, (0..<points.count).map { index in
                        let point = points[(index + task * 250) % points.count]
                        return shared.region(latitude: point.0, longitude: point.1)
                    })
                }
            }
            var all: [(Int, [ApproximateRegion])] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 8)
        for (task, regions) in results {
            for (index, region) in regions.enumerated() {
                #expect(region == expected[(index + task * 250) % points.count])
            }
        }
    }
}
