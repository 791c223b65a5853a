import Foundation
import LocationGeodesy
import SeededRandom
import Testing
@testable import LocationGeofencing

@Suite struct FenceIndexTests {
    private func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        Geodesic.wgs84.distance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
    }

    /// A point within `spread` metres of (lat, lon), in a random direction (the longitude wraps).
    private func near(_ lat: Double, _ lon: Double, within spread: Double, _ rng: inout SplitMix64) -> (Double, Double) {
        let p = Geodesic.wgs84.direct(latitude: lat, longitude: lon, azimuth: rng.uniform(0, 360),
                                      distance: rng.uniform(0, spread))
        return (p.latitude, p.longitude)
    }

    /// Fences and points clustered where grids break: the poles, the antimeridian, the equator at
    /// 0°, and a few random places; radii from 1 m to 300 km.
    @Test(arguments: [UInt64(1), 2])
    func queriesMatchABruteForceScan(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let hotspots: [(Double, Double)] = [(90, 0), (-90, 0), (89.99, 180), (0, 180), (0, -180), (65, 179.9),
                                            (-40, -179.95), (0, 0), (47.3, 8.5), (-33.9, 151.2)]
        let index = FenceIndex()
        var fences: [FenceKey: FenceCircle] = [:]
        for _ in 0..<3_000 {
            let (hlat, hlon) = hotspots[Int(rng.next() % UInt64(hotspots.count))]
            let (lat, lon) = near(hlat, hlon, within: 50_000, &rng)
            let radius = exp(rng.uniform(log(1), log(300_000)))
            let circle = FenceCircle(latitude: lat, longitude: lon, radius: radius)
            let key = try! #require(index.insert(circle))
            fences[key] = circle
        }
        // Churn: remove a third, move a tenth, add more.
        for key in Array(fences.keys).sorted().prefix(1_000) {
            #expect(index.remove(key))
            fences[key] = nil
        }
        for key in Array(fences.keys).sorted().prefix(200) {
            let (lat, lon) = near(0, 180, within: 30_000, &rng)
            let circle = FenceCircle(latitude: lat, longitude: lon, radius: rng.uniform(10, 5_000))
            #expect(index.replace(key, with: circle))
            fences[key] = circle
        }
        for _ in 0..<500 {
            let (lat, lon) = near(90, 0, within: 20_000, &rng)
            let circle = FenceCircle(latitude: lat, longitude: lon, radius: rng.uniform(10, 20_000))
            fences[try! #require(index.insert(circle))] = circle
        }
        #expect(index.count == fences.count)

        var nonEmpty = 0
        for _ in 0..<1_000 {
            let (hlat, hlon) = hotspots[Int(rng.next() % UInt64(hotspots.count))]
            let (lat, lon) = near(hlat, hlon, within: 60_000, &rng)
            let margin = rng.unit() < 0.2 ? 0 : exp(rng.uniform(log(1), log(50_000)))
            let expected = Set(fences.filter { _, c in
                distance(lat, lon, c.latitude, c.longitude) <= c.radius + margin
            }.keys)
            let got = index.candidates(latitude: lat, longitude: lon, margin: margin)
            #expect(got.count == Set(got).count, "a fence found twice")
            #expect(Set(got) == expected, "at \(lat), \(lon) margin \(margin)")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 250, "the points must actually hit fences")
    }

    @Test func findsAFenceAcrossTheAntimeridian() {
        let index = FenceIndex()
        let key = try! #require(index.insert(FenceCircle(latitude: 10, longitude: 179.999, radius: 500)))
        // 179.999° E to 179.997° W is ~440 m at 10° N, to 179.99° W ~1,210 m.
        #expect(index.candidates(latitude: 10, longitude: -179.997, margin: 0) == [key])
        #expect(index.candidates(latitude: 10, longitude: -179.99, margin: 0).isEmpty)
        #expect(index.candidates(latitude: 10, longitude: -179.99, margin: 690).isEmpty)
        #expect(index.candidates(latitude: 10, longitude: -179.99, margin: 730) == [key])
    }

    @Test func findsAFenceOverAPoleFromEveryLongitude() {
        let index = FenceIndex()
        let key = try! #require(index.insert(FenceCircle(latitude: 89.995, longitude: 30, radius: 2_000)))
        // The pole is ~555 m from the centre; points 1 km beyond the pole on any meridian are inside.
        for lon in stride(from: -180.0, through: 180, by: 15) {
            let p = Geodesic.wgs84.direct(latitude: 90, longitude: 0, azimuth: 180 + lon, distance: 1_000)
            let inside = distance(p.latitude, p.longitude, 89.995, 30) <= 2_000
            #expect(index.candidates(latitude: p.latitude, longitude: p.longitude, margin: 0) == (inside ? [key] : []))
        }
        #expect(index.candidates(latitude: 90, longitude: 123, margin: 0) == [key])
        #expect(index.candidates(latitude: -90, longitude: 0, margin: 0).isEmpty)
    }

    @Test func refusesInvalidFencesAndQueries() {
        let index = FenceIndex()
        #expect(index.insert(FenceCircle(latitude: 91, longitude: 0, radius: 10)) == nil)
        #expect(index.insert(FenceCircle(latitude: 0, longitude: .nan, radius: 10)) == nil)
        #expect(index.insert(FenceCircle(latitude: 0, longitude: 0, radius: 0)) == nil)
        #expect(index.insert(FenceCircle(latitude: 0, longitude: 0, radius: .infinity)) == nil)
        let key = try! #require(index.insert(FenceCircle(latitude: 0, longitude: 0, radius: 10)))
        #expect(!index.replace(key, with: FenceCircle(latitude: 0, longitude: 0, radius: -1)))
        #expect(index.circle(key)?.radius == 10)
        #expect(index.candidates(latitude: .nan, longitude: 0, margin: 0).isEmpty)
        #expect(index.candidates(latitude: 0, longitude: 0, margin: -1).isEmpty)
        #expect(index.candidates(latitude: 0, longitude: 0, margin: .infinity).isEmpty)
        #expect(index.candidates(latitude: 0, longitude: 0, margin: 1e12) == [key])
        #expect(!index.remove(FenceKey(rawValue: 99)))
        #expect(index.remove(key))
        #expect(!index.remove(key))
        #expect(index.count == 0)
    }

    @Test func reusesFreedKeys() {
        let index = FenceIndex()
        let a = try! #require(index.insert(FenceCircle(latitude: 1, longitude: 1, radius: 10)))
        _ = index.insert(FenceCircle(latitude: 2, longitude: 2, radius: 10))
        index.remove(a)
        let c = try! #require(index.insert(FenceCircle(latitude: 3, longitude: 3, radius: 10)))
        #expect(c == a)
        #expect(index.candidates(latitude: 1, longitude: 1, margin: 0).isEmpty)
        #expect(index.candidates(latitude: 3, longitude: 3, margin: 0) == [c])
    }

    @Test func nearestBoundaryMatchesABruteForceScan() {
        var rng = SplitMix64(seed: 7)
        let index = FenceIndex()
        var fences: [FenceCircle] = []
        for _ in 0..<2_000 {
            let (lat, lon) = near(0, 179.5, within: 200_000, &rng)
            let circle = FenceCircle(latitude: lat, longitude: lon, radius: rng.uniform(50, 2_000))
            _ = index.insert(circle)
            fences.append(circle)
        }
        for _ in 0..<200 {
            let (lat, lon) = near(0, 179.5, within: 400_000, &rng)
            let expected = fences.map { abs(distance(lat, lon, $0.latitude, $0.longitude) - $0.radius) }.min()!
            let got = try! #require(index.nearestBoundaryDistance(latitude: lat, longitude: lon))
            #expect(abs(got - expected) < 1e-3)
            if expected > 5_000 {
                #expect(index.nearestBoundaryDistance(latitude: lat, longitude: lon, limit: 5_000) == nil)
            }
        }
        // Far away: the search widens until it finds them.
        let far = try! #require(index.nearestBoundaryDistance(latitude: 45, longitude: 0))
        let expected = fences.map { abs(distance(45, 0, $0.latitude, $0.longitude) - $0.radius) }.min()!
        #expect(abs(far - expected) < 1e-3)
        #expect(FenceIndex().nearestBoundaryDistance(latitude: 0, longitude: 0) == nil)
    }
}
