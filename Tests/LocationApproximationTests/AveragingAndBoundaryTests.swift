import LocationPlaces
import LocationPolicy
import SeededRandom
import Testing
@testable import LocationApproximation

/// What an app could try against approximate location: averaging many fixes, and timing the moment
/// the reported point changes.
@Suite struct AveragingAndBoundaryTests {
    /// A stationary device's 1,000 jittered fixes (σ 15 m), reported one after the other as the
    /// service does (each with the previous region), averaged: no closer to the truth than one fix.
    @Test func averagingAThousandFixesOfAStationaryDeviceGetsNoCloser() throws {
        let database = try packageDatabase()
        let regions = PlaceApproximateRegions(database: database, seed: testSeed(20))
        var generator = SplitMix64(seed: 21)
        var users = 0
        while users < 100 {
            let truth = randomLandPoint(&generator, in: database)
            users += 1
            var previous: ApproximateRegion?
            var sumLatitude = 0.0, sumLongitude = 0.0
            var first: ApproximateRegion?
            for _ in 0..<1_000 {
                let fix = moved((truth.latitude, truth.longitude), azimuth: generator.uniform(0, 360),
                                distance: abs(gaussian(&generator, sigma: 15)))
                let region = regions.region(latitude: fix.latitude, longitude: fix.longitude, previous: previous)
                previous = region
                if first == nil { first = region }
                sumLatitude += region.latitude
                sumLongitude += region.longitude
            }
            let one = try #require(first)
            let average = (latitude: sumLatitude / 1_000, longitude: sumLongitude / 1_000)
            let single = metres((truth.latitude, truth.longitude), (one.latitude, one.longitude))
            let averaged = metres((truth.latitude, truth.longitude), average)
            #expect(averaged >= single - 1, "averaged \(averaged) m from the truth, one fix \(single) m")
        }
    }

    /// Walking east across the edge between two regions of one country: the reported region changes
    /// only once the device is the old region's margin past the edge, and it holds the device all along.
    @Test func aChangeOfRegionCountsOnlyAMarginInsideTheNewOne() throws {
        let database = try packageDatabase()
        let regions = PlaceApproximateRegions(database: database, seed: testSeed(30))
        var generator = SplitMix64(seed: 31)
        var crossings = 0
        var attempts = 0
        while crossings < 40, attempts < 400 {
            attempts += 1
            let start = randomLandPoint(&generator, in: database)
            let step = 10.0
            var points: [(latitude: Double, longitude: Double)] = []
            for index in 0..<1_500 {
                points.append(moved((start.latitude, start.longitude), azimuth: 90, distance: Double(index) * step))
            }
            let plain = points.map { regions.region(latitude: $0.latitude, longitude: $0.longitude) }
            guard let edge = plain.indices.dropFirst().first(where: { plain[$0].id != plain[0].id }) else { continue }
            let before = try #require(regions.layout.entry(identity: plain[0].id))
            guard let after = regions.layout.entry(identity: plain[edge].id), after.locality.country == before.locality.country,
                  plain[0..<edge].allSatisfy({ $0.id == plain[0].id }) else { continue }
            var previous: ApproximateRegion?
            var switched: Int?
            for (index, point) in points.enumerated() {
                let region = regions.region(latitude: point.latitude, longitude: point.longitude, previous: previous)
                #expect(metres(point, (region.latitude, region.longitude)) <= region.radius)
                if switched == nil, let previous, previous.id != region.id { switched = index }
                previous = region
                if switched != nil { break }
            }
            let change = try #require(switched)
            let lag = Double(change - edge) * step
            #expect(lag >= before.margin - step, "changed \(lag) m past the edge; margin \(before.margin) m")
            crossings += 1
        }
        #expect(crossings >= 20, "edges crossed: \(crossings)")
    }

    /// The margin holds across a restart: a new instance (same seed, nothing cached) given the region
    /// reported before keeps it just past the edge.
    @Test func theMarginHoldsAcrossARestart() throws {
        let database = try packageDatabase()
        let seed = testSeed(35)
        let regions = PlaceApproximateRegions(database: database, seed: seed)
        var generator = SplitMix64(seed: 36)
        var checked = 0
        while checked < 20 {
            let start = randomLandPoint(&generator, in: database)
            let points = (0..<1_500).map { moved((start.latitude, start.longitude), azimuth: 0, distance: Double($0) * 10) }
            let plain = points.map { regions.region(latitude: $0.latitude, longitude: $0.longitude) }
            guard let edge = plain.indices.dropFirst().first(where: { plain[$0].id != plain[0].id }),
                  let before = regions.layout.entry(identity: plain[0].id), before.source == .seededCandidate,
                  before.margin > 20,
                  regions.layout.entry(identity: plain[edge].id)?.locality.country == before.locality.country else { continue }
            let restarted = PlaceApproximateRegions(database: database, seed: seed)
            let kept = restarted.region(latitude: points[edge].latitude, longitude: points[edge].longitude, previous: plain[0])
            #expect(kept == plain[0])
            checked += 1
        }
    }

    /// Across a country border the reported country follows the device at once.
    @Test func aChangeOfCountryCountsAtOnce() throws {
        let database = try packageDatabase()
        let regions = PlaceApproximateRegions(database: database, seed: testSeed(40))
        // Strasbourg (France) to Kehl (Germany) over the Rhine, and Geneva to Annemasse.
        let walks: [((Double, Double), Double)] = [((48.5800, 7.7000), 90), ((46.2000, 6.1400), 80)]
        for ((latitude, longitude), azimuth) in walks {
            var previous: ApproximateRegion?
            var countries: Set<Int> = []
            for index in 0..<1_500 {
                let point = moved((latitude, longitude), azimuth: azimuth, distance: Double(index) * 10)
                guard let truth = database.reverseLookup(latitude: point.latitude, longitude: point.longitude),
                      truth.surface == .land, let country = truth.polygonCountry else { continue }
                countries.insert(country)
                let region = regions.region(latitude: point.latitude, longitude: point.longitude, previous: previous)
                previous = region
                let reported = database.reverseLookup(latitude: region.latitude, longitude: region.longitude)
                #expect(reported?.polygonCountry == country, "at \(point)")
            }
            #expect(countries.count == 2, "the walk from \(latitude), \(longitude) crosses a border")
        }
    }
}
