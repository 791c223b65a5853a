import Foundation
import LocationGeodesy

/// Turns waypoints into a deterministic timed track sampled at 1 Hz: how a walker or a driver would
/// move along them.
///
/// ## The model
///
/// The path is the chain of WGS84 geodesics through the waypoints (closed back to the first waypoint
/// for a circuit). Along it the generator builds the *fastest speed profile that respects every
/// limit*, with the classic two-pass method used for vehicle speed planning:
///
/// 1. **Speed limits along the path.** Each leg has a target speed: the `speedLimit` of the waypoint
///    that starts it, else `cruiseSpeed`. A deterministic "traffic wave" is added so the speed is not
///    constant: `speedVariation · sin(2π·s / variationWavelength)`, where `s` is the distance from the
///    start (on a circuit the wavelength is adjusted so a whole number of waves fits one lap).
///    At a waypoint the target is the lower of the two legs' targets, and further:
///    - **Stops**: a waypoint with `dwell > 0` (a red light, a junction, a crossing) has limit 0, and
///      the traveller then stands still there for `dwell` seconds. The ends of an open path are stops.
///    - **Turns**: a waypoint where the path turns by an angle θ is taken on a circular arc of radius
///      `R = min(turnRadius, shorter adjacent leg / 2) / tan(θ/2)` (so `turnRadius` is the radius of a
///      right-angle turn and gentle bends have large radii), at no more than `√(lateralAcceleration·R)`.
///      A U-turn (θ = 180°) has radius 0: the traveller slows to a halt and turns around.
/// 2. **Acceleration and braking.** A forward pass caps the speed at each point by what `acceleration`
///    allows from the previous point (`v² ≤ v₀² + 2·a·Δs`), a backward pass by what `deceleration`
///    allows before the next one. On a circuit both passes go round twice so the profile is periodic.
///    Speed is linear in distance squared between the points of a fine grid (≤ 2 m apart), i.e.
///    constant acceleration, which fixes the time at every point.
/// 3. **Whole-second laps.** The time of one lap is rounded up to whole seconds by slowing the whole
///    lap uniformly (by less than one part in the lap's duration), so 1 Hz samples repeat exactly.
/// 4. **Sampling.** The position is sampled every second: distance travelled → point on the geodesic
///    leg; altitude is linear along each leg between waypoint altitudes (when all are given).
///
/// The result is the same for the same input on every machine: no randomness, no wall clock.
/// A closed circuit yields a looping `TimedTrack` whose last sample is its first, so it repeats forever
/// without a jump; an open path yields a finite track that starts and ends at rest.
public struct RouteGenerator: Sendable, Equatable {
    /// A point the path goes through.
    public struct Waypoint: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        /// Metres above mean sea level, when known.
        public var altitude: Double?
        /// Seconds to stand still at this waypoint (0: go through without stopping).
        public var dwell: TimeInterval
        /// Target speed (m/s) for the leg that starts here; nil for the generator's `cruiseSpeed`.
        public var speedLimit: Double?

        public init(_ latitude: Double, _ longitude: Double, altitude: Double? = nil,
                    dwell: TimeInterval = 0, speedLimit: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.dwell = dwell
            self.speedLimit = speedLimit
        }
    }

    /// Target speed on legs without their own limit, m/s.
    public var cruiseSpeed: Double
    /// Largest speed increase, m/s².
    public var acceleration: Double
    /// Largest speed decrease (braking), m/s².
    public var deceleration: Double
    /// Largest sideways acceleration in a turn, m/s²; with the turn radius it sets the turn speed.
    public var lateralAcceleration: Double
    /// Radius of a right-angle turn, metres (about 10 m at a street corner, hundreds on a freeway).
    public var turnRadius: Double
    /// Amplitude of the deterministic speed wave, m/s (0: none).
    public var speedVariation: Double
    /// Length of one speed wave along the path, metres.
    public var variationWavelength: Double

    /// Grid spacing of the speed profile, metres.
    static let maximumStep = 2.0
    /// Waypoints closer than this to the previous one are merged into it, metres.
    static let mergeDistance = 0.5

    /// - Precondition: all speeds, accelerations and lengths positive and finite, `speedVariation` not
    ///   negative and less than half of `cruiseSpeed`.
    public init(cruiseSpeed: Double, acceleration: Double = 1.5, deceleration: Double = 2,
                lateralAcceleration: Double = 2.5, turnRadius: Double = 10,
                speedVariation: Double = 0, variationWavelength: Double = 2000) {
        for (name, value) in [("cruiseSpeed", cruiseSpeed), ("acceleration", acceleration),
                              ("deceleration", deceleration), ("lateralAcceleration", lateralAcceleration),
                              ("turnRadius", turnRadius), ("variationWavelength", variationWavelength)] {
            precondition(value.isFinite && value > 0, "\(name) must be positive")
        }
        precondition(speedVariation.isFinite && speedVariation >= 0 && speedVariation < cruiseSpeed / 2,
                      "speedVariation must be in [0, cruiseSpeed / 2)")
        self.cruiseSpeed = cruiseSpeed
        self.acceleration = acceleration
        self.deceleration = deceleration
        self.lateralAcceleration = lateralAcceleration
        self.turnRadius = turnRadius
        self.speedVariation = speedVariation
        self.variationWavelength = variationWavelength
    }

    /// The timed track of a traveller following `waypoints`.
    ///
    /// - Parameters:
    ///   - waypoints: the path; consecutive duplicates are merged. On a circuit do not repeat the first
    ///     waypoint at the end: the path closes by itself, and the lap starts and ends at the first one.
    ///   - closed: true for a circuit that repeats forever (a looping track), false for a one-way trip
    ///     that starts and ends at rest.
    /// - Returns: a track with one point per second.
    /// - Precondition: at least two distinct waypoints with valid coordinates; speed limits positive
    ///   and above `speedVariation`.
    public func track(through waypoints: [Waypoint], closed: Bool = true) -> TimedTrack {
        let path = Path(waypoints: waypoints, closed: closed, mergeDistance: Self.mergeDistance)
        for waypoint in path.waypoints {
            if let limit = waypoint.speedLimit {
                precondition(limit.isFinite && limit > speedVariation, "speed limits must exceed speedVariation")
            }
        }
        let grid = speedProfile(on: path)
        let knots = timeKnots(of: grid, on: path)
        return sample(knots, on: path)
    }

    // MARK: - Steps of the model

    /// Distances and speed limits along the path, then the two passes.
    private func speedProfile(on path: Path) -> Grid {
        let total = path.length
        var wavelength = variationWavelength
        if path.closed { wavelength = total / max(1, (total / variationWavelength).rounded()) }

        var grid = Grid()
        for leg in path.legs.indices {
            let length = path.legs[leg].length
            let steps = max(1, Int((length / Self.maximumStep).rounded(.up)))
            for step in 0..<steps {
                let s = path.legs[leg].start + length * Double(step) / Double(steps)
                var limit = legSpeed(path, leg) + speedVariation * sin(2 * Double.pi * s / wavelength)
                if step == 0 { limit = min(limit, vertexLimit(path, vertex: leg, wave: s, wavelength: wavelength)) }
                grid.append(distance: s, limit: limit, vertex: step == 0 ? leg : nil)
            }
        }
        // The end of the path: the first waypoint again on a circuit, the last waypoint otherwise.
        let endVertex = path.closed ? 0 : path.waypoints.count - 1
        grid.append(distance: total, limit: path.closed ? grid.limits[0] : 0, vertex: endVertex)

        var speeds = grid.limits
        if path.closed {
            // The point with the lowest limit is a fixed point of both passes: start there, go round twice.
            let count = speeds.count - 1
            let lowest = speeds[0..<count].indices.min { speeds[$0] < speeds[$1] } ?? 0
            for step in 1...(2 * count) {
                let j = (lowest + step) % count, previous = (j + count - 1) % count
                speeds[j] = min(speeds[j], (speeds[previous] * speeds[previous]
                                            + 2 * acceleration * grid.step(after: previous)).squareRoot())
            }
            for step in 1...(2 * count) {
                let j = ((lowest - step) % count + count) % count, next = (j + 1) % count
                speeds[j] = min(speeds[j], (speeds[next] * speeds[next]
                                            + 2 * deceleration * grid.step(after: j)).squareRoot())
            }
            speeds[count] = speeds[0]
        } else {
            speeds[0] = 0
            for j in 1..<speeds.count {
                speeds[j] = min(speeds[j], (speeds[j - 1] * speeds[j - 1]
                                            + 2 * acceleration * grid.step(after: j - 1)).squareRoot())
            }
            for j in stride(from: speeds.count - 2, through: 0, by: -1) {
                speeds[j] = min(speeds[j], (speeds[j + 1] * speeds[j + 1]
                                            + 2 * deceleration * grid.step(after: j)).squareRoot())
            }
        }
        grid.speeds = speeds
        return grid
    }

    /// Target speed of a leg.
    private func legSpeed(_ path: Path, _ leg: Int) -> Double {
        path.waypoints[leg].speedLimit ?? cruiseSpeed
    }

    /// The speed limit at a waypoint: stop, end of an open path, or turn.
    private func vertexLimit(_ path: Path, vertex: Int, wave s: Double, wavelength: Double) -> Double {
        if path.waypoints[vertex].dwell > 0 { return 0 }
        let incomingLeg: Int
        if vertex > 0 {
            incomingLeg = vertex - 1
        } else if path.closed {
            incomingLeg = path.legs.count - 1
        } else {
            return 0
        }
        let incoming = path.legs[incomingLeg], outgoing = path.legs[vertex]
        let wave = speedVariation * sin(2 * Double.pi * s / wavelength)
        var limit = min(legSpeed(path, incomingLeg), legSpeed(path, vertex)) + wave
        let turn = abs(azimuthDifference(from: incoming.finalAzimuth, to: outgoing.initialAzimuth)) * Double.pi / 180
        if turn > 0.5 * Double.pi / 180 {
            let radius = min(turnRadius, min(incoming.length, outgoing.length) / 2) / tan(turn / 2)
            limit = min(limit, (lateralAcceleration * max(0, radius)).squareRoot())
        }
        return limit
    }

    /// Time at every grid point under constant acceleration between points, with the dwells inserted.
    private func timeKnots(of grid: Grid, on path: Path) -> [Knot] {
        var knots: [Knot] = []
        knots.reserveCapacity(grid.distances.count + path.waypoints.count)
        var time = 0.0
        func dwell(at index: Int) {
            guard let vertex = grid.vertices[index] else { return }
            let seconds = path.waypoints[vertex].dwell
            guard seconds > 0 else { return }
            time += seconds
            knots.append(Knot(distance: grid.distances[index], time: time, speed: 0))
        }
        knots.append(Knot(distance: 0, time: 0, speed: grid.speeds[0]))
        dwell(at: 0)
        let last = grid.distances.count - 1
        for index in 1...last {
            let step = grid.distances[index] - grid.distances[index - 1]
            let sum = max(grid.speeds[index - 1] + grid.speeds[index], 1e-3)
            time += 2 * step / sum
            knots.append(Knot(distance: grid.distances[index], time: time, speed: grid.speeds[index]))
            // On a circuit the first waypoint's dwell happens at the start of the next lap.
            if index < last || !path.closed { dwell(at: index) }
        }
        return knots
    }

    /// One sample per whole second; the lap is stretched to a whole number of seconds.
    private func sample(_ knots: [Knot], on path: Path) -> TimedTrack {
        let duration = knots[knots.count - 1].time
        let seconds = max(1, Int((duration - 1e-9).rounded(.up)))
        let scale = duration / Double(seconds)
        var points: [TimedTrack.Point] = []
        points.reserveCapacity(seconds + 1)
        var knot = 0, leg = 0
        for second in 0...seconds {
            let time = min(Double(second) * scale, duration)
            while knot + 1 < knots.count - 1 && knots[knot + 1].time <= time { knot += 1 }
            let distance = knots[knot].distance(at: time, next: knots[knot + 1])
            while leg + 1 < path.legs.count && path.legs[leg + 1].start <= distance { leg += 1 }
            points.append(path.point(onLeg: leg, at: distance, time: Double(second)))
        }
        if path.closed {
            // Exactly where the lap started, so the repeat cannot jump.
            let first = points[0]
            points[seconds] = TimedTrack.Point(time: Double(seconds), latitude: first.latitude,
                                               longitude: first.longitude, altitude: first.altitude)
        }
        return TimedTrack(points: points, isLooping: path.closed)
    }
}

// MARK: - Internal geometry and bookkeeping

extension RouteGenerator {
    /// The waypoints as a chain of geodesic legs.
    struct Path {
        struct Leg {
            var start: Double
            var length: Double
            var initialAzimuth: Double
            var finalAzimuth: Double
        }

        let waypoints: [Waypoint]
        let legs: [Leg]
        let closed: Bool

        init(waypoints input: [Waypoint], closed: Bool, mergeDistance: Double) {
            var merged: [Waypoint] = []
            for waypoint in input {
                precondition(waypoint.latitude.isFinite && abs(waypoint.latitude) <= 90
                             && waypoint.longitude.isFinite && abs(waypoint.longitude) <= 180,
                             "waypoint out of range")
                precondition(waypoint.dwell.isFinite && waypoint.dwell >= 0, "dwell must not be negative")
                if let last = merged.last, Self.distance(last, waypoint) < mergeDistance {
                    merged[merged.count - 1].dwell = max(last.dwell, waypoint.dwell)
                } else {
                    merged.append(waypoint)
                }
            }
            if closed, merged.count > 2, Self.distance(merged[0], merged[merged.count - 1]) < mergeDistance {
                merged[0].dwell = max(merged[0].dwell, merged[merged.count - 1].dwell)
                merged.removeLast()
            }
            precondition(merged.count >= 2, "a path needs at least two distinct waypoints")
            var legs: [Leg] = []
            var start = 0.0
            let count = closed ? merged.count : merged.count - 1
            for index in 0..<count {
                let a = merged[index], b = merged[(index + 1) % merged.count]
                let inverse = Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude,
                                                     latitude2: b.latitude, longitude2: b.longitude)
                legs.append(Leg(start: start, length: inverse.distance,
                                initialAzimuth: inverse.initialAzimuth, finalAzimuth: inverse.finalAzimuth))
                start += inverse.distance
            }
            self.waypoints = merged
            self.legs = legs
            self.closed = closed
        }

        var length: Double { legs[legs.count - 1].start + legs[legs.count - 1].length }

        func point(onLeg index: Int, at distance: Double, time: TimeInterval) -> TimedTrack.Point {
            let leg = legs[index]
            let along = min(max(distance - leg.start, 0), leg.length)
            let a = waypoints[index], b = waypoints[(index + 1) % waypoints.count]
            let moved = Geodesic.wgs84.direct(latitude: a.latitude, longitude: a.longitude,
                                              azimuth: leg.initialAzimuth, distance: along)
            var altitude: Double?
            if let altitudeA = a.altitude, let altitudeB = b.altitude, leg.length > 0 {
                altitude = altitudeA + (altitudeB - altitudeA) * along / leg.length
            }
            return TimedTrack.Point(time: time, latitude: moved.latitude, longitude: moved.longitude, altitude: altitude)
        }

        static func distance(_ a: Waypoint, _ b: Waypoint) -> Double {
            Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude,
                                    latitude2: b.latitude, longitude2: b.longitude)
        }
    }

    /// Points along the path every ≤ 2 m, with their speed limits and, after the passes, speeds.
    struct Grid {
        var distances: [Double] = []
        var limits: [Double] = []
        var vertices: [Int?] = []
        var speeds: [Double] = []

        mutating func append(distance: Double, limit: Double, vertex: Int?) {
            distances.append(distance)
            limits.append(max(0, limit))
            vertices.append(vertex)
        }

        /// Distance from point `index` to the next one.
        func step(after index: Int) -> Double { distances[index + 1] - distances[index] }
    }

    /// A moment of the motion: distance travelled, time, speed. Between two knots the acceleration is
    /// constant; two knots at the same distance are a stop.
    struct Knot {
        var distance: Double
        var time: TimeInterval
        var speed: Double

        /// Distance travelled at `time`, between this knot and `next`.
        func distance(at time: TimeInterval, next: Knot) -> Double {
            let step = next.distance - distance
            guard step > 0, time > self.time else { return time >= next.time ? next.distance : distance }
            let elapsed = min(time, next.time) - self.time
            let accelerationHere = (next.speed * next.speed - speed * speed) / (2 * step)
            let travelled = speed * elapsed + 0.5 * accelerationHere * elapsed * elapsed
            return distance + min(max(travelled, 0), step)
        }
    }
}
