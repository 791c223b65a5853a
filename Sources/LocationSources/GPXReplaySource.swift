import Foundation
import LocationCore
import LocationGeodesy
import Logging

/// Replays a GPX file as a moving device: one fix per second of simulated time, then `.finished`.
///
/// The replay follows `GPXDocument.replayPoints` (the tracks, else the routes, else the waypoints).
/// Each leg between two consecutive points lasts
/// - the recorded time difference, when both points carry times and the second is later (a recording
///   is replayed at its own pace, pauses included);
/// - otherwise its geodesic length divided by `travelSpeed` (routes, waypoints, untimed points);
/// and points repeating the previous position with no time to spend there are dropped. Track segments
/// are joined: a gap between segments is travelled like any other leg, so the device never jumps.
///
/// The first point is where the device is at the moment the source first starts. Positions between
/// points are interpolated along the geodesic; altitude is interpolated from `ele` when both ends of a
/// leg have one (then `verticalAccuracy` is valid, otherwise -1). Speed and course come from the motion
/// (`TimedTrack.velocityWindow`): 0 and -1 while standing still. GPX gives no geoid, so
/// `ellipsoidalAltitude` repeats the elevation (geoid separation 0).
///
/// Clock behaviour is that of `SimulatedRouteSource`: `speed` simulated seconds per loop second, fix
/// timestamps in simulated time, and the simulated clock keeps running while stopped; a replay started
/// again after its end reports `.finished` at once.
public final class GPXReplaySource: LocationSource {
    /// Travel speed for legs without recorded times, m/s (50 km/h).
    public static let defaultTravelSpeed = 13.9
    /// What replayed fixes claim: 5 m horizontal, 8 m vertical, 0.5 m/s, 5°; no geoid separation.
    public static let defaultProfile = FixProfile(horizontalAccuracy: 5, verticalAccuracy: 8, speedAccuracy: 0.5,
                                                  courseAccuracy: 5, geoidSeparation: 0)

    public let descriptor: SourceDescriptor
    public let document: GPXDocument
    /// The replay as a timed track (not looping).
    public let track: TimedTrack
    /// Simulated seconds per loop second.
    public var speed: Double { player.speed }

    private let player: TrackPlayer

    /// - Parameters:
    ///   - name: the spec the source is known by, e.g. `gpx:walk.gpx`.
    ///   - travelSpeed: m/s for legs without recorded times.
    ///   - speed: simulated seconds per loop second.
    /// - Precondition: the document has at least one point (`GPXDocument` parsing guarantees it);
    ///   `travelSpeed` and `speed` positive and finite.
    public init(document: GPXDocument, name: String = "gpx", travelSpeed: Double = GPXReplaySource.defaultTravelSpeed,
                speed: Double = 1, profile: FixProfile = GPXReplaySource.defaultProfile) {
        precondition(travelSpeed.isFinite && travelSpeed > 0, "travelSpeed must be positive")
        self.document = document
        track = Self.timedTrack(of: document.replayPoints, travelSpeed: travelSpeed, name: name)
        player = TrackPlayer(track: track, profile: profile, speed: speed, name: name)
        descriptor = SourceDescriptor(name: name, kind: .gpx, typicalAccuracy: profile.horizontalAccuracy, powerCost: 0)
    }

    /// Reads the GPX file at `path` and replays it.
    ///
    /// - Throws: `GPXError` when the file cannot be used.
    public convenience init(contentsOfFile path: String, travelSpeed: Double = GPXReplaySource.defaultTravelSpeed,
                            speed: Double = 1) throws(GPXError) {
        let document = try GPXDocument(contentsOfFile: path)
        self.init(document: document, name: "gpx:\(path)", travelSpeed: travelSpeed, speed: speed)
    }

    public func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        player.start(on: loop, emit: emit)
    }

    public func stop() { player.stop() }

    /// The timed track through `points` (see the type's documentation for the timing rules).
    static func timedTrack(of points: [GPXDocument.Point], travelSpeed: Double, name: String) -> TimedTrack {
        precondition(!points.isEmpty, "a GPX replay needs at least one point")
        var result = [TimedTrack.Point(time: 0, latitude: points[0].latitude, longitude: points[0].longitude,
                                       altitude: points[0].elevation)]
        var previous = points[0]
        var time = 0.0
        var backwardsTimes = 0
        for point in points.dropFirst() {
            let distance = Geodesic.wgs84.distance(latitude1: previous.latitude, longitude1: previous.longitude,
                                                   latitude2: point.latitude, longitude2: point.longitude)
            var duration = distance / travelSpeed
            if let start = previous.time, let end = point.time {
                let recorded = end.timeIntervalSince(start)
                if recorded > 0 { duration = recorded } else if distance > 0 { backwardsTimes += 1 }
            }
            previous = point
            // A repeated position with no time to spend there adds nothing (and would break strict order).
            guard duration > 0 else { continue }
            time += duration
            result.append(TimedTrack.Point(time: time, latitude: point.latitude, longitude: point.longitude,
                                           altitude: point.elevation))
        }
        if backwardsTimes > 0 {
            sourcesLogger.warning("GPX times do not increase; those legs are travelled at the travel speed",
                                  metadata: ["source": "\(name)", "legs": "\(backwardsTimes)"])
        }
        return TimedTrack(points: result, isLooping: false)
    }
}
