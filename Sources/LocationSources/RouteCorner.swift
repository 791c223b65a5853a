import Foundation
import LocationGeodesy

/// A waypoint of a route definition: a plain point, or a junction taken on a curve.
///
/// Freeway-to-freeway connectors are long curves, not corners; writing them as their junction point
/// plus a radius keeps the route data readable. `expanded` replaces each rounded corner with points
/// every few degrees along the circular arc that is tangent to both legs (a fillet), so the generator
/// sees gentle bends and keeps the speed the curve allows.
enum RoutePoint {
    case point(RouteGenerator.Waypoint)
    case corner(RouteGenerator.Waypoint, radius: Double)

    /// Largest change of direction between two arc points, degrees.
    static let arcStep = 10.0

    /// The waypoints of a route with its rounded corners replaced by arcs.
    static func expanded(_ route: [RoutePoint], closed: Bool) -> [RouteGenerator.Waypoint] {
        let plain = route.map { point -> RouteGenerator.Waypoint in
            switch point {
            case .point(let waypoint), .corner(let waypoint, _): waypoint
            }
        }
        var result: [RouteGenerator.Waypoint] = []
        for (index, point) in route.enumerated() {
            guard case .corner(let corner, let radius) = point,
                  closed || (index > 0 && index < route.count - 1) else {
                result.append(plain[index])
                continue
            }
            let before = plain[(index + plain.count - 1) % plain.count]
            let after = plain[(index + 1) % plain.count]
            result.append(contentsOf: arc(from: before, corner: corner, to: after, radius: radius))
        }
        return result
    }

    /// Points along the fillet of radius `radius` at `corner` between the legs from `before` and to `after`.
    static func arc(from before: RouteGenerator.Waypoint, corner: RouteGenerator.Waypoint,
                    to after: RouteGenerator.Waypoint, radius: Double) -> [RouteGenerator.Waypoint] {
        let geodesic = Geodesic.wgs84
        let incoming = geodesic.inverse(latitude1: before.latitude, longitude1: before.longitude,
                                        latitude2: corner.latitude, longitude2: corner.longitude).finalAzimuth
        let outgoing = geodesic.inverse(latitude1: corner.latitude, longitude1: corner.longitude,
                                        latitude2: after.latitude, longitude2: after.longitude).initialAzimuth
        let turn = azimuthDifference(from: incoming, to: outgoing)
        guard abs(turn) > 1 else { return [corner] }
        let side: Double = turn > 0 ? 1 : -1
        let tangent = radius * tan(abs(turn) / 2 * Double.pi / 180)
        let entry = geodesic.direct(latitude: corner.latitude, longitude: corner.longitude,
                                    azimuth: incoming + 180, distance: tangent)
        let centre = geodesic.direct(latitude: entry.latitude, longitude: entry.longitude,
                                     azimuth: incoming + side * 90, distance: radius)
        let steps = max(1, Int((abs(turn) / arcStep).rounded(.up)))
        return (0...steps).map { step in
            let bearing = incoming - side * 90 + turn * Double(step) / Double(steps)
            let point = geodesic.direct(latitude: centre.latitude, longitude: centre.longitude,
                                        azimuth: bearing, distance: radius)
            var waypoint = corner
            waypoint.dwell = 0
            waypoint.latitude = point.latitude
            waypoint.longitude = point.longitude
            return waypoint
        }
    }
}
