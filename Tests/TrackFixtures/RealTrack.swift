import Foundation
import LocationSources

/// The recorded tracks in `Tracks/` (see its README: sources and licence), as the GPX replay plays them.
public enum RealTrack: String, CaseIterable, Sendable {
    /// A drive round Višnjan, Croatia: 104 points over 8 min 34 s, 2.7 km.
    case visnjanDrive = "around-visnjan-with-car"
    /// A walk at Lake Cerknica, Slovenia: 296 points over 2 h, 13.7 km, with pauses.
    case cerknicaWalk = "cerknicko-jezero"

    /// The file, in this module's resources.
    public var url: URL {
        guard let url = Bundle.module.url(forResource: rawValue, withExtension: "gpx", subdirectory: "Tracks") else {
            fatalError("missing track \(rawValue).gpx")
        }
        return url
    }

    /// The spec that replays the track: `gpx:PATH`.
    public var spec: String { "gpx:\(url.path)" }

    /// The track's points exactly as `GPXReplaySource` travels them: seconds from the first point,
    /// segments joined, points without time to spend there dropped.
    public var positions: [TimedPosition] {
        let replay: GPXReplaySource
        do {
            replay = try GPXReplaySource(contentsOfFile: url.path)
        } catch {
            fatalError("track \(rawValue).gpx does not load: \(error)")
        }
        return replay.track.points.map { TimedPosition(time: $0.time, latitude: $0.latitude, longitude: $0.longitude) }
    }
}
