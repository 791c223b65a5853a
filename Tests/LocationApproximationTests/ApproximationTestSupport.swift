import Foundation
import LocationGeodesy
import LocationPlaces
import SeededRandom
import Testing
@testable import LocationApproximation

/// The package's places database; a missing one fails the test that asks for it, with the reason.
func packageDatabase() throws -> PlacesDatabase {
    switch PlacesDatabase.shared {
    case .success(let database):
        return database
    case .failure(let error):
        Issue.record("the package's places database is unavailable: \(error)")
        throw error
    }
}

/// A seed of 32 bytes drawn from `number`.
func testSeed(_ number: UInt64) -> ApproximateRegionsSeed {
    var generator = SplitMix64(seed: number)
    return ApproximateRegionsSeed(bytes: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })!
}

/// A point uniform on the sphere.
func randomPoint(_ generator: inout SplitMix64) -> (latitude: Double, longitude: Double) {
    let z = generator.uniform(-1, 1)
    return (asin(z) * 180 / .pi, generator.uniform(-180, 180))
}

/// A point uniform on the sphere that reverse geocoding puts on land, with its hit.
func randomLandPoint(_ generator: inout SplitMix64, in database: PlacesDatabase)
    -> (latitude: Double, longitude: Double, hit: ReverseHit) {
    while true {
        let point = randomPoint(&generator)
        if let hit = database.reverseLookup(latitude: point.latitude, longitude: point.longitude), hit.surface == .land {
            return (point.latitude, point.longitude, hit)
        }
    }
}

/// Metres between two positions on WGS84.
func metres(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)) -> Double {
    Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
}

/// A position `distance` metres from `point` on the geodesic at `azimuth` degrees.
func moved(_ point: (latitude: Double, longitude: Double), azimuth: Double, distance: Double) -> (latitude: Double, longitude: Double) {
    let result = Geodesic.wgs84.direct(latitude: point.latitude, longitude: point.longitude, azimuth: azimuth, distance: distance)
    return (result.latitude, result.longitude)
}

/// Normal noise (Box–Muller) of standard deviation `sigma`.
func gaussian(_ generator: inout SplitMix64, sigma: Double) -> Double {
    let u = max(generator.unit(), 1e-300), v = generator.unit()
    return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
}
