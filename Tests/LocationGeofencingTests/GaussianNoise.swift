import Foundation
import LocationGeodesy
import SeededRandom

/// Seeded Gaussian position noise for tests (Box–Muller on SplitMix64).
struct GaussianNoise {
    private var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func normal() -> Double {
        let u1 = 1 - rng.unit(), u2 = rng.unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// (lat, lon) displaced by independent N(0, σ²) metres north and east.
    mutating func displace(latitude: Double, longitude: Double, sigma: Double) -> (Double, Double) {
        let north = sigma * normal(), east = sigma * normal()
        let p = Geodesic.wgs84.direct(latitude: latitude, longitude: longitude,
                                      azimuth: atan2(east, north) * 180 / Double.pi,
                                      distance: (north * north + east * east).squareRoot())
        return (p.latitude, p.longitude)
    }
}
