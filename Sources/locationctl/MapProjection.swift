import Foundation
import LocationGeodesy

/// A point on the drawing, in SVG user units (pixels), y downwards.
struct MapPoint: Equatable, Sendable {
    var x: Double
    var y: Double
}

/// Latitude and longitude to the drawing: a local equirectangular projection centred on the data.
///
/// Around the centre latitude φ₀ a degree of latitude and a degree of longitude are measured on the
/// WGS84 ellipsoid (geodesic lengths), and the data's bounding box is scaled to fit the drawing area
/// with the same number of pixels per metre in both directions. Distances are true north–south
/// everywhere and east–west along φ₀, so over the few kilometres of a track the map is true to
/// scale and a ground circle is drawn as the ellipse (or, far from φ₀ or near a pole, the shape) it
/// really projects to. Longitudes are unwrapped around the centre, so data across the antimeridian
/// stays together.
struct MapProjection: Sendable {
    /// The drawing area: left, top, width and height in pixels.
    let area: (x: Double, y: Double, width: Double, height: Double)
    let centreLatitude: Double
    let centreLongitude: Double
    let metresPerDegreeLatitude: Double
    let metresPerDegreeLongitude: Double
    /// Pixels per metre on the ground.
    let scale: Double

    /// A projection that shows every point of `points` (latitude, longitude) inside `area`, with at
    /// least `minimumExtent` metres across so that a single point still gets a map around it.
    init(fitting points: [(latitude: Double, longitude: Double)],
         area: (x: Double, y: Double, width: Double, height: Double), minimumExtent: Double = 200) {
        precondition(!points.isEmpty, "a map needs at least one point")
        self.area = area
        let latitudes = points.map(\.latitude)
        let reference = points[0].longitude
        let longitudes = points.map { reference + Self.wrap($0.longitude - reference) }
        let south = latitudes.min()!, north = latitudes.max()!
        let west = longitudes.min()!, east = longitudes.max()!
        centreLatitude = (south + north) / 2
        centreLongitude = Self.wrap((west + east) / 2)
        let half = 0.5
        let low = max(-90, centreLatitude - half), high = min(90, centreLatitude + half)
        metresPerDegreeLatitude = Geodesic.wgs84.distance(latitude1: low, longitude1: 0, latitude2: high, longitude2: 0)
            / (high - low)
        // A short east–west geodesic at φ₀ (a parallel is not a geodesic, but over 0.01° they agree).
        let step = 0.01
        metresPerDegreeLongitude = max(1e-6, Geodesic.wgs84.distance(
            latitude1: centreLatitude, longitude1: 0, latitude2: centreLatitude, longitude2: step) / step)
        let widthMetres = max((east - west) * metresPerDegreeLongitude, minimumExtent)
        let heightMetres = max((north - south) * metresPerDegreeLatitude, minimumExtent)
        scale = min(area.width / widthMetres, area.height / heightMetres)
    }

    /// Brings a longitude difference into [-180, 180).
    static func wrap(_ degrees: Double) -> Double {
        var value = (degrees + 180).truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value - 180
    }

    /// Where a position is drawn.
    func point(latitude: Double, longitude: Double) -> MapPoint {
        let east = Self.wrap(longitude - centreLongitude) * metresPerDegreeLongitude
        let north = (latitude - centreLatitude) * metresPerDegreeLatitude
        return MapPoint(x: area.x + area.width / 2 + east * scale, y: area.y + area.height / 2 - north * scale)
    }

    /// The outline of a circle of `radius` metres on the ground, drawn: see `outline`.
    func groundCircle(latitude: Double, longitude: Double, radius: Double, count: Int = 72) -> [MapPoint] {
        Self.outline(latitude: latitude, longitude: longitude, radius: radius, count: count)
            .map { point(latitude: $0.latitude, longitude: $0.longitude) }
    }

    /// `count` points of a circle of `radius` metres on the ground, at equal azimuths from the
    /// centre, each on the geodesic from it.
    static func outline(latitude: Double, longitude: Double, radius: Double,
                        count: Int = 72) -> [(latitude: Double, longitude: Double)] {
        (0..<count).map { index in
            let edge = Geodesic.wgs84.direct(latitude: latitude, longitude: longitude,
                                             azimuth: Double(index) * 360 / Double(count), distance: radius)
            return (edge.latitude, edge.longitude)
        }
    }
}
