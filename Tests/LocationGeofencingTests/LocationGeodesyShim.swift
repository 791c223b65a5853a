import LocationGeodesy
@testable import LocationGeofencing

/// Points built with the project's geodesic, for tests.
enum LocationGeodesyShim {
    static func point(from origin: (Double, Double), azimuth: Double, distance: Double) -> EarthPoint {
        let p = Geodesic.wgs84.direct(latitude: origin.0, longitude: origin.1, azimuth: azimuth, distance: distance)
        return EarthPoint(latitude: p.latitude, longitude: p.longitude)
    }
}
