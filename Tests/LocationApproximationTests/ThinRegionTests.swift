import LocationPolicy
import SeededRandom
import Testing
@testable import LocationApproximation

/// A made-up world where regions can be thin: all land in country 0 with locality 2, crossed by
/// north–south stripes (longitude within `stripe` of a multiple of 0.1°) with another locality or
/// country. Empty, so every coarse cell is whole (11 km).
struct StripedPlaces: ApproximationPlaces {
    let stripe: Double
    /// The stripe's country: 0 (only the locality differs) or 1 (a sliver of another country).
    let stripeCountry: Int32

    func inStripe(_ longitude: Double) -> Bool {
        let offset = (longitude * 10).rounded(.down) / 10
        return longitude - offset < stripe
    }

    func localityKey(latitude: Double, longitude: Double) -> LocalityKey? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        return inStripe(longitude) ? LocalityKey(country: stripeCountry, locality: 1, surface: .land)
            : LocalityKey(country: 0, locality: 2, surface: .land)
    }

    func populationNear(latitude: Double, longitude: Double, radius: Double) -> Int { 0 }

    func localityPosition(_ locality: Int32) -> (latitude: Double, longitude: Double)? { nil }
}

@Suite struct ThinRegionTests {
    /// Points in stripes 800 m wide (a twelfth of a cell): the seeded candidates miss some, and then a
    /// point of the lattice over the coarse cell is in the stripe — unless the cell's edge leaves less
    /// of the stripe than the lattice's spacing, when a point of the same country stands in.
    @Test func aThinRegionGetsALatticePointInsideIt() {
        let layout = RegionLayout(places: StripedPlaces(stripe: 0.008, stripeCountry: 0), seed: testSeed(50).bytes)
        var generator = SplitMix64(seed: 51)
        var sources: [RegionPoint.Source?: Int] = [:]
        for _ in 0..<500 {
            // Within 35° of the equator the lattice's spacing (a sixteenth of a cell) is under the stripe's width.
            let latitude = generator.uniform(-35, 35)
            let longitude = (generator.uniform(-170, 170) * 10).rounded(.down) / 10 + generator.uniform(0, 0.008)
            guard let entry = layout.entry(latitude: latitude, longitude: longitude) else {
                Issue.record("no region at \(latitude), \(longitude)")
                continue
            }
            sources[entry.source, default: 0] += 1
            let region = PlaceApproximateRegions.reported(entry, latitude: latitude, longitude: longitude, layout: layout)
            let reported = layout.places.localityKey(latitude: region.latitude, longitude: region.longitude)
            if entry.source == .sameCountry {
                #expect(reported?.country == entry.locality.country)
            } else {
                #expect(reported == entry.locality)
            }
            #expect(metres((latitude, longitude), (region.latitude, region.longitude)) <= region.radius)
            #expect((1_000...20_000).contains(region.radius))
        }
        #expect((sources[.coarseLattice] ?? 0) > 0, "sources: \(sources)")
        #expect(sources[nil] == nil && (sources[.sameCountry] ?? 0) <= 25, "sources: \(sources)")
    }

    /// A sliver of another country 30 m wide, which no seeded point finds: the fix's own point,
    /// rounded when that keeps the country, is reported — in the sliver's country, within the radius.
    @Test func aCountrysSliverReportsTheFixInThatCountry() {
        let places = StripedPlaces(stripe: 0.0003, stripeCountry: 1)
        let layout = RegionLayout(places: places, seed: testSeed(52).bytes)
        var generator = SplitMix64(seed: 53)
        var withoutPoint = 0
        for _ in 0..<200 {
            let latitude = generator.uniform(-60, 60)
            let longitude = (generator.uniform(-170, 170) * 10).rounded(.down) / 10 + generator.uniform(0, 0.0003)
            guard let entry = layout.entry(latitude: latitude, longitude: longitude) else { continue }
            #expect(entry.locality.country == 1)
            if entry.source == nil { withoutPoint += 1 }
            let region = PlaceApproximateRegions.reported(entry, latitude: latitude, longitude: longitude, layout: layout)
            #expect(places.localityKey(latitude: region.latitude, longitude: region.longitude)?.country == 1)
            #expect(metres((latitude, longitude), (region.latitude, region.longitude)) <= region.radius)
            #expect(region.id == entry.region.id)
        }
        #expect(withoutPoint > 100, "slivers without a point of their own: \(withoutPoint) of 200")
    }
}
