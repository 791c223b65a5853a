import Foundation

/// The content of a GPX 1.0 or 1.1 file that matters for replaying it: tracks, routes and waypoints.
///
/// Everything else in the file (metadata, extensions, `hdop`, links) is ignored.
public struct GPXDocument: Sendable, Equatable {
    /// A `wpt`, `rtept` or `trkpt`.
    public struct Point: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        /// `ele`: metres (GPX does not say above what; receivers write height above sea level).
        public var elevation: Double?
        /// `time`, when the point carries one.
        public var time: Date?
        /// `name`, when the point carries one.
        public var name: String?

        public init(latitude: Double, longitude: Double, elevation: Double? = nil, time: Date? = nil, name: String? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.elevation = elevation
            self.time = time
            self.name = name
        }
    }

    /// A `trk`: one recording, in segments (`trkseg`) split where the receiver lost its fix.
    public struct Track: Sendable, Equatable {
        public var name: String?
        public var segments: [[Point]]

        public init(name: String? = nil, segments: [[Point]]) {
            self.name = name
            self.segments = segments
        }
    }

    /// A `rte`: a planned route through `rtept` points.
    public struct Route: Sendable, Equatable {
        public var name: String?
        public var points: [Point]

        public init(name: String? = nil, points: [Point]) {
            self.name = name
            self.points = points
        }
    }

    public var tracks: [Track]
    public var routes: [Route]
    public var waypoints: [Point]
    /// The `creator` attribute of the root element.
    public var creator: String?

    public init(tracks: [Track] = [], routes: [Route] = [], waypoints: [Point] = [], creator: String? = nil) {
        self.tracks = tracks
        self.routes = routes
        self.waypoints = waypoints
        self.creator = creator
    }

    /// The points a replay travels through, in order: all track points when there are any (tracks and
    /// segments one after the other), else all route points, else the waypoints.
    public var replayPoints: [Point] {
        let trackPoints = tracks.flatMap { $0.segments.flatMap { $0 } }
        if !trackPoints.isEmpty { return trackPoints }
        let routePoints = routes.flatMap(\.points)
        if !routePoints.isEmpty { return routePoints }
        return waypoints
    }

    /// Reads and parses the GPX file at `path`.
    ///
    /// - Throws: `GPXError` when the file cannot be read, is not well-formed XML, is not GPX, holds an
    ///   invalid value, or holds no point at all. A file with only waypoints, or points without times
    ///   or elevations, is not an error.
    public init(contentsOfFile path: String) throws(GPXError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw GPXError(path: path, reason: .unreadable(GPXError.describeReadFailure(path: path, error: error)))
        }
        self = try GPXParser.parse(data, path: path)
    }

    /// Parses GPX from memory. `sourceName` only labels error messages.
    ///
    /// - Throws: `GPXError`, as `init(contentsOfFile:)`.
    public init(data: Data, sourceName: String? = nil) throws(GPXError) {
        self = try GPXParser.parse(data, path: sourceName)
    }
}
