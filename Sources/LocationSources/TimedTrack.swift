import Foundation
import LocationGeodesy

/// A path through time: where a simulated device is at every instant of its own clock.
///
/// A track is a list of points with strictly increasing time offsets (seconds from the start of the
/// track, the first point at 0). Between two points the device moves along the WGS84 geodesic joining
/// them at constant speed, and its altitude changes linearly. A *looping* track repeats forever: its
/// last point is its first point again, `duration` seconds later, so the motion never jumps.
///
/// Both the GPX replay and the built-in routes are played from a `TimedTrack`; the generator of the
/// built-in routes produces one sampled at 1 Hz.
public struct TimedTrack: Sendable, Equatable {
    /// One point of the track.
    public struct Point: Sendable, Equatable {
        /// Seconds from the start of the track.
        public var time: TimeInterval
        public var latitude: Double
        public var longitude: Double
        /// Metres above mean sea level, when known.
        public var altitude: Double?

        public init(time: TimeInterval, latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.time = time
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }
    }

    /// Where the device is at one instant and how it moves.
    public struct State: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var altitude: Double?
        /// Metres per second over the last `velocityWindow` seconds; 0 when stationary.
        public var speed: Double
        /// Azimuth of travel over the last `velocityWindow` seconds, degrees in [0, 360);
        /// nil when the device did not move.
        public var course: Double?

        public init(latitude: Double, longitude: Double, altitude: Double? = nil, speed: Double, course: Double?) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.speed = speed
            self.course = course
        }
    }

    /// Speed and course describe the motion over this many seconds before the instant asked for
    /// (after it, for the first second of a track that does not loop): the displacement a receiver
    /// sampling once per second sees, so reported speed always matches the distance between
    /// consecutive 1 Hz fixes.
    public static let velocityWindow: TimeInterval = 1

    /// A displacement shorter than this over the velocity window counts as standing still (metres).
    public static let stationaryThreshold = 0.05

    public let points: [Point]
    /// True when the track repeats forever (its last point is its first point).
    public let isLooping: Bool

    /// Geodesic length and initial azimuth of each leg (points[i] → points[i + 1]).
    private let legLengths: [Double]
    private let legAzimuths: [Double]

    /// Makes a track.
    ///
    /// - Precondition: at least one point; the first at time 0; times strictly increasing and finite;
    ///   valid coordinates. A looping track needs at least two points and ends where it starts.
    public init(points: [Point], isLooping: Bool = false) {
        precondition(!points.isEmpty, "a track needs at least one point")
        precondition(points[0].time == 0, "a track starts at time 0")
        for (index, point) in points.enumerated() {
            precondition(point.time.isFinite && abs(point.latitude) <= 90 && abs(point.longitude) <= 180,
                         "invalid track point \(index)")
            if index > 0 { precondition(point.time > points[index - 1].time, "track times must increase") }
        }
        var lengths: [Double] = [], azimuths: [Double] = []
        lengths.reserveCapacity(points.count)
        azimuths.reserveCapacity(points.count)
        for index in points.indices.dropLast() {
            let a = points[index], b = points[index + 1]
            let inverse = Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude,
                                                 latitude2: b.latitude, longitude2: b.longitude)
            lengths.append(inverse.distance)
            azimuths.append(inverse.initialAzimuth)
        }
        if isLooping {
            precondition(points.count >= 2, "a looping track needs at least two points")
            precondition(lengths.isEmpty || Geodesic.wgs84.distance(
                latitude1: points[0].latitude, longitude1: points[0].longitude,
                latitude2: points[points.count - 1].latitude, longitude2: points[points.count - 1].longitude) < 0.5,
                "a looping track must end where it starts")
        }
        self.points = points
        self.isLooping = isLooping
        self.legLengths = lengths
        self.legAzimuths = azimuths
    }

    /// Seconds from the first point to the last (one lap of a looping track).
    public var duration: TimeInterval { points[points.count - 1].time }

    /// Total geodesic length of the path, metres (one lap of a looping track).
    public var length: Double { legLengths.reduce(0, +) }

    /// The position at `time` seconds from the start. Times before the start give the first point and
    /// times after the end the last one, unless the track loops, in which case time wraps around.
    public func position(at time: TimeInterval) -> Point {
        let t = wrapped(time)
        guard points.count > 1 else { return Point(time: time, latitude: points[0].latitude, longitude: points[0].longitude, altitude: points[0].altitude) }
        let index = legIndex(containing: t)
        let a = points[index], b = points[index + 1]
        let fraction = (t - a.time) / (b.time - a.time)
        if fraction <= 0 { return Point(time: time, latitude: a.latitude, longitude: a.longitude, altitude: a.altitude) }
        if fraction >= 1 { return Point(time: time, latitude: b.latitude, longitude: b.longitude, altitude: b.altitude) }
        let moved = Geodesic.wgs84.direct(latitude: a.latitude, longitude: a.longitude,
                                          azimuth: legAzimuths[index], distance: legLengths[index] * fraction)
        var altitude: Double?
        if let altitudeA = a.altitude, let altitudeB = b.altitude {
            altitude = altitudeA + (altitudeB - altitudeA) * fraction
        }
        return Point(time: time, latitude: moved.latitude, longitude: moved.longitude, altitude: altitude)
    }

    /// The position at `time` with the speed and course of the motion that led there
    /// (see `velocityWindow`).
    public func state(at time: TimeInterval) -> State {
        let here = position(at: time)
        var from = time - Self.velocityWindow, to = time
        if !isLooping {
            if from < 0 { from = 0; to = min(Self.velocityWindow, duration) }
            to = min(to, duration)
        }
        var speed = 0.0
        var course: Double?
        if to > from {
            let a = position(at: from), b = position(at: to)
            let inverse = Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude,
                                                 latitude2: b.latitude, longitude2: b.longitude)
            if inverse.distance >= Self.stationaryThreshold {
                speed = inverse.distance / (to - from)
                course = normalizedCourse(inverse.finalAzimuth)
            }
        }
        return State(latitude: here.latitude, longitude: here.longitude, altitude: here.altitude,
                     speed: speed, course: course)
    }

    /// Maps any time onto [0, duration]: clamps, or wraps for a looping track.
    private func wrapped(_ time: TimeInterval) -> TimeInterval {
        let total = duration
        guard total > 0 else { return 0 }
        if isLooping {
            var t = time.truncatingRemainder(dividingBy: total)
            if t < 0 { t += total }
            return t
        }
        return min(max(time, 0), total)
    }

    /// The index i of the leg with points[i].time <= t < points[i + 1].time (the last leg for t == duration).
    private func legIndex(containing t: TimeInterval) -> Int {
        var low = 0, high = points.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if points[middle].time <= t { low = middle } else { high = middle }
        }
        return low
    }
}
