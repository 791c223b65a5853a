import Foundation
import LocationGeodesy

/// A point on the WGS 84 ellipsoid (height 0) as Earth-centred Cartesian coordinates, metres.
///
/// The straight-line distance between two such points (the chord) bounds the geodesic distance
/// from both sides (see ``ChordBounds``), so most decisions need three subtractions and no
/// trigonometry; the exact geodesic is computed only when a bound is too close to a threshold.
struct EarthPoint: Equatable {
    var x: Double
    var y: Double
    var z: Double

    static let equatorialRadius = 6_378_137.0
    static let flattening = 1 / 298.257223563
    static let eccentricitySquared = flattening * (2 - flattening)

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(latitude: Double, longitude: Double) {
        let phi = latitude * (Double.pi / 180), lambda = longitude * (Double.pi / 180)
        let sinPhi = sin(phi), cosPhi = cos(phi)
        let n = Self.equatorialRadius / (1 - Self.eccentricitySquared * sinPhi * sinPhi).squareRoot()
        x = n * cosPhi * cos(lambda)
        y = n * cosPhi * sin(lambda)
        z = n * (1 - Self.eccentricitySquared) * sinPhi
    }

    /// Geodetic latitude, degrees. Exact in closed form because the point is on the surface:
    /// z = (1 − e²) N sin φ and p = N cos φ, so tan φ = z / ((1 − e²) p).
    var latitude: Double {
        atan2(z, (1 - Self.eccentricitySquared) * (x * x + y * y).squareRoot()) * (180 / Double.pi)
    }

    /// Longitude, degrees in [−180, 180].
    var longitude: Double { atan2(y, x) * (180 / Double.pi) }

    @inline(__always)
    func chord(to other: EarthPoint) -> Double {
        let dx = x - other.x, dy = y - other.y, dz = z - other.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }
}

/// Bounds on the geodesic distance s between two surface points from their chord c.
///
/// Lower: s ≥ c (a straight line is shortest). Upper: a geodesic's curvature as a space curve is
/// its normal curvature, at most 1/ρ with ρ = a(1 − e²) the smallest radius of curvature of the
/// ellipsoid (the meridian's, at the equator); by Schur's comparison theorem its chord is at least
/// that of a circular arc of radius ρ and the same length, so s ≤ 2ρ·asin(c / 2ρ)
/// ≤ c + c³ / (20ρ²) for c ≤ 0.8ρ (the asin series is bounded by x³/6 / (1 − x²), x = c/2ρ ≤ 0.4).
/// At 10 km the two bounds are 0.2 mm apart. `slack` covers rounding in the coordinates and in
/// Karney's solution (nanometres).
enum ChordBounds {
    static let smallestCurvatureRadius = EarthPoint.equatorialRadius * (1 - EarthPoint.eccentricitySquared)
    static let slack = 1e-6
    private static let upperLimit = 0.8 * smallestCurvatureRadius
    private static let cubicFactor = 1 / (20 * smallestCurvatureRadius * smallestCurvatureRadius)

    @inline(__always)
    static func lower(_ chord: Double) -> Double { chord - slack }

    /// Infinity when the chord is too long for the bound (then only the exact distance decides).
    @inline(__always)
    static func upper(_ chord: Double) -> Double {
        chord <= upperLimit ? chord + chord * chord * chord * cubicFactor + slack : .infinity
    }

    static func exactDistance(_ a: EarthPoint, _ b: EarthPoint) -> Double {
        Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude,
                                latitude2: b.latitude, longitude2: b.longitude)
    }

    /// Whether the geodesic distance between `a` and `b` (chord `chord`) is at most `reach`.
    @inline(__always)
    static func within(_ reach: Double, chord: Double, _ a: EarthPoint, _ b: EarthPoint) -> Bool {
        if lower(chord) > reach { return false }
        if upper(chord) <= reach { return true }
        return exactDistance(a, b) <= reach
    }
}
