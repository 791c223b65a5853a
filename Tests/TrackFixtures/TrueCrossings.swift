import LocationGeodesy

/// Where a track is at one instant: seconds from its start, degrees.
public struct TimedPosition: Sendable, Equatable {
    public var time: Double
    public var latitude: Double
    public var longitude: Double

    public init(time: Double, latitude: Double, longitude: Double) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A circle on the ground: a centre and a geodesic radius in metres.
public struct GroundCircle: Sendable, Equatable {
    public var identifier: String
    public var latitude: Double
    public var longitude: Double
    public var radius: Double

    public init(identifier: String, latitude: Double, longitude: Double, radius: Double) {
        self.identifier = identifier
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }
}

/// The moment a track crosses a circle's edge.
public struct Crossing: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case entry, exit
    }

    public var identifier: String
    public var kind: Kind
    /// Seconds from the track's start.
    public var time: Double

    public init(identifier: String, kind: Kind, time: Double) {
        self.identifier = identifier
        self.kind = kind
        self.time = time
    }
}

/// The exact moments a timed track enters and leaves circles: the truth geofencing tests measure
/// an evaluator against.
///
/// Between two consecutive points the track moves along the WGS84 geodesic at constant speed
/// (position linear in time along the geodesic), as `TimedTrack` and the GPX replay move. A point
/// is inside a circle when its geodesic distance to the centre is at most the radius.
public enum TrueCrossings {
    /// How closely crossing times are found, seconds.
    public static let timeTolerance = 1e-4

    /// Every crossing of every circle, in time order (ties: circles in the order given).
    ///
    /// Along one leg the distance to a centre first falls, then rises (a geodesic shorter than half
    /// the Earth's circumference has one closest point to any other point), so each leg crosses an
    /// edge at most twice: the closest point of the leg splits it into two monotonic halves, each
    /// bisected.
    ///
    /// - Precondition: times strictly increase; legs are shorter than 10 000 km.
    public static func crossings(of track: [TimedPosition], circles: [GroundCircle]) -> [Crossing] {
        for index in track.indices.dropFirst() {
            precondition(track[index].time > track[index - 1].time, "track times must strictly increase")
        }
        var result: [(crossing: Crossing, order: Int)] = []
        for (order, circle) in circles.enumerated() {
            for crossing in crossings(of: track, circle: circle) { result.append((crossing, order)) }
        }
        return result.sorted { ($0.crossing.time, $0.order) < ($1.crossing.time, $1.order) }.map(\.crossing)
    }

    /// Whether the track's first point is inside the circle.
    public static func startsInside(_ track: [TimedPosition], _ circle: GroundCircle) -> Bool {
        guard let first = track.first else { return false }
        return distance(first.latitude, first.longitude, circle) <= circle.radius
    }

    /// Geodesic distance from a point to a circle's centre, metres.
    public static func distance(_ latitude: Double, _ longitude: Double, _ circle: GroundCircle) -> Double {
        Geodesic.wgs84.distance(latitude1: latitude, longitude1: longitude,
                                latitude2: circle.latitude, longitude2: circle.longitude)
    }

    private static func crossings(of track: [TimedPosition], circle: GroundCircle) -> [Crossing] {
        var found: [Crossing] = []
        for index in track.indices.dropFirst() {
            let leg = Leg(from: track[index - 1], to: track[index])
            let edge = { (fraction: Double) in leg.distance(at: fraction, to: circle) - circle.radius }
            let closest = leg.closestFraction(to: circle)
            for (low, high) in [(0.0, closest), (closest, 1.0)] where high > low {
                let a = edge(low), b = edge(high)
                // Inside is `edge <= 0`: a crossing is a change between `> 0` and `<= 0`.
                guard (a > 0) != (b > 0) else { continue }
                let fraction = bisect(edge, low, high, outsideAtLow: a > 0, duration: leg.duration)
                found.append(Crossing(identifier: circle.identifier, kind: a > 0 ? .entry : .exit,
                                      time: leg.startTime + fraction * leg.duration))
            }
        }
        return found
    }

    /// The fraction in [low, high] where `edge` changes sign, to `timeTolerance`.
    private static func bisect(_ edge: (Double) -> Double, _ low: Double, _ high: Double,
                               outsideAtLow: Bool, duration: Double) -> Double {
        var low = low, high = high
        for _ in 0..<200 where (high - low) * duration > timeTolerance / 2 {
            let middle = (low + high) / 2
            if (edge(middle) > 0) == outsideAtLow { low = middle } else { high = middle }
        }
        // The first instant on the far side of the edge (within the tolerance).
        return high
    }

    /// One leg of the track: a geodesic travelled at constant speed.
    private struct Leg {
        let start: TimedPosition
        let startTime: Double
        let duration: Double
        let length: Double
        let azimuth: Double

        init(from a: TimedPosition, to b: TimedPosition) {
            start = a
            startTime = a.time
            duration = b.time - a.time
            let inverse = Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude,
                                                 latitude2: b.latitude, longitude2: b.longitude)
            length = inverse.distance
            azimuth = inverse.initialAzimuth
        }

        func position(at fraction: Double) -> (latitude: Double, longitude: Double) {
            guard length > 0 else { return (start.latitude, start.longitude) }
            let point = Geodesic.wgs84.direct(latitude: start.latitude, longitude: start.longitude,
                                              azimuth: azimuth, distance: length * fraction)
            return (point.latitude, point.longitude)
        }

        func distance(at fraction: Double, to circle: GroundCircle) -> Double {
            let point = position(at: fraction)
            return TrueCrossings.distance(point.latitude, point.longitude, circle)
        }

        /// The fraction of the leg closest to the circle's centre (golden-section search on a
        /// unimodal distance).
        func closestFraction(to circle: GroundCircle) -> Double {
            guard length > 0 else { return 0 }
            let ratio = (5.0.squareRoot() - 1) / 2
            var low = 0.0, high = 1.0
            var x1 = high - ratio * (high - low), x2 = low + ratio * (high - low)
            var f1 = distance(at: x1, to: circle), f2 = distance(at: x2, to: circle)
            while (high - low) * length > 1e-4 {
                if f1 < f2 {
                    high = x2; x2 = x1; f2 = f1
                    x1 = high - ratio * (high - low); f1 = distance(at: x1, to: circle)
                } else {
                    low = x1; x1 = x2; f1 = f2
                    x2 = low + ratio * (high - low); f2 = distance(at: x2, to: circle)
                }
            }
            let middle = (low + high) / 2
            let candidates = [0.0, middle, 1.0]
            return candidates.min { distance(at: $0, to: circle) < distance(at: $1, to: circle) } ?? middle
        }
    }
}
