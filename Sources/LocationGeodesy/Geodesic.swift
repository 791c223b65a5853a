#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
// PLACEHOLDER API: spherical stand-in, to be replaced by Karney's algorithm (issue #2 item 2).
// The public API below is the contract other modules code against.

/// Geodesics on an ellipsoid of revolution (WGS84 by default).
public struct Geodesic: Sendable {
    /// Equatorial radius, metres.
    public let equatorialRadius: Double
    /// Flattening.
    public let flattening: Double

    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    public init(equatorialRadius: Double, flattening: Double) {
        self.equatorialRadius = equatorialRadius
        self.flattening = flattening
    }

    public struct InverseResult: Sendable, Equatable {
        /// Geodesic distance, metres.
        public var distance: Double
        /// Azimuth at point 1, degrees clockwise from north, in [-180, 180].
        public var initialAzimuth: Double
        /// Azimuth at point 2 (forward direction), degrees, in [-180, 180].
        public var finalAzimuth: Double
    }

    public struct DirectResult: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        /// Forward azimuth at the end point, degrees.
        public var finalAzimuth: Double
    }

    /// The shortest path between two points (degrees).
    public func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> InverseResult {
        let r = 6_371_008.8, d = Double.pi / 180
        let p1 = latitude1 * d, p2 = latitude2 * d, dl = (longitude2 - longitude1) * d
        let h = pow2(sin((p2 - p1) / 2)) + cos(p1) * cos(p2) * pow2(sin(dl / 2))
        let s = 2 * r * asin(min(1, h.squareRoot()))
        let az = atan2(sin(dl) * cos(p2), cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl)) / d
        return InverseResult(distance: s, initialAzimuth: az, finalAzimuth: az)
    }

    /// Distance in metres between two points (degrees).
    public func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        inverse(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2).distance
    }

    /// The point reached by going `distance` metres from a point along `azimuth` degrees.
    public func direct(latitude: Double, longitude: Double, azimuth: Double, distance: Double) -> DirectResult {
        let r = 6_371_008.8, d = Double.pi / 180
        let p1 = latitude * d, l1 = longitude * d, t = azimuth * d, dr = distance / r
        let p2 = asin(sin(p1) * cos(dr) + cos(p1) * sin(dr) * cos(t))
        let l2 = l1 + atan2(sin(t) * sin(dr) * cos(p1), cos(dr) - sin(p1) * sin(p2))
        var lon = l2 / d
        lon = (lon + 540).truncatingRemainder(dividingBy: 360) - 180
        return DirectResult(latitude: p2 / d, longitude: lon, finalAzimuth: azimuth)
    }
}

private func pow2(_ x: Double) -> Double { x * x }
