import Foundation

/// One reference geodesic from `Fixtures/geodesic-pairs.csv`, solved by
/// GeographicLib (see scripts/generate-geodesic-pairs.py).
struct GeodesicPair: Sendable, CustomStringConvertible {
    var lat1, lon1, lat2, lon2: Double
    var s12, azi1, azi2: Double
    var line: Int

    var description: String {
        "line \(line): (\(lat1), \(lon1)) → (\(lat2), \(lon2)), s12 \(s12)"
    }
}

enum GeodesicFixtures {
    /// All reference pairs, parsed once.
    static let pairs: [GeodesicPair] = load()

    private static func load() -> [GeodesicPair] {
        guard let url = Bundle.module.url(forResource: "geodesic-pairs", withExtension: "csv",
                                          subdirectory: "Fixtures"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var result: [GeodesicPair] = []
        for (index, line) in text.split(separator: "\n").enumerated() where index > 0 {
            let v = line.split(separator: ",").compactMap { Double(String($0)) }
            guard v.count == 7 else { continue }
            result.append(GeodesicPair(lat1: v[0], lon1: v[1], lat2: v[2], lon2: v[3],
                                       s12: v[4], azi1: v[5], azi2: v[6], line: index + 1))
        }
        return result
    }
}

/// |a − b| for angles in degrees, modulo 360 (so 180 and −180 agree).
func angleError(_ a: Double, _ b: Double) -> Double {
    let d = abs(a - b).truncatingRemainder(dividingBy: 360)
    return min(d, 360 - d)
}

extension GeodesicPair {
    /// Coincident points, opposite poles (every meridian) and pairs on the cut
    /// locus (lat2 = −lat1 near the antipodal meridian) have more than one
    /// shortest geodesic.
    var hasAmbiguousAzimuths: Bool {
        s12 == 0 || (lat1 == -lat2 && (abs(lat1) == 90 || angleError(lon1, lon2 + 180) < 1))
    }
}

/// Tolerance for an azimuth in degrees: 1e-9°, or a sideways offset of 4 nm at
/// point 2, whichever is larger (the positions themselves are only known to ~1 nm).
func azimuthTolerance(distance: Double) -> Double {
    max(1e-9, 4e-9 / distance * 180 / .pi)
}

/// Approximate distance in metres between two nearby points, robust at the poles.
func positionError(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let metresPerDegree = 111_320.0
    let north = (lat1 - lat2) * metresPerDegree
    let east = angleError(lon1, lon2) * metresPerDegree * cos((lat1 + lat2) / 2 * .pi / 180)
    return (north * north + east * east).squareRoot()
}
