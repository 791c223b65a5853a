import Foundation

/// One position sample as a source produced it, before any per-app policy.
///
/// The fields and their validity sentinels follow `CLLocation`: a negative accuracy marks the matching
/// value as invalid, so a source that does not know a value sets its accuracy to `-1`.
public struct Fix: Sendable, Equatable, Codable {
    public var latitude: Double
    public var longitude: Double
    /// Height above mean sea level, metres.
    public var altitude: Double
    /// Height above the WGS84 ellipsoid, metres.
    public var ellipsoidalAltitude: Double
    public var horizontalAccuracy: Double
    public var verticalAccuracy: Double
    /// Metres per second.
    public var speed: Double
    public var speedAccuracy: Double
    /// Degrees clockwise from true north.
    public var course: Double
    public var courseAccuracy: Double
    public var timestamp: Date
    public var isSimulated: Bool
    public var isProducedByAccessory: Bool
    public var floor: Int?

    public init(
        latitude: Double, longitude: Double,
        altitude: Double = 0, ellipsoidalAltitude: Double = 0,
        horizontalAccuracy: Double, verticalAccuracy: Double = -1,
        speed: Double = -1, speedAccuracy: Double = -1,
        course: Double = -1, courseAccuracy: Double = -1,
        timestamp: Date, isSimulated: Bool = false, isProducedByAccessory: Bool = false, floor: Int? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.ellipsoidalAltitude = ellipsoidalAltitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.timestamp = timestamp
        self.isSimulated = isSimulated
        self.isProducedByAccessory = isProducedByAccessory
        self.floor = floor
    }

    /// True when latitude and longitude are usable (Apple: negative horizontal accuracy means invalid).
    public var hasValidPosition: Bool {
        horizontalAccuracy >= 0 && latitude.isFinite && longitude.isFinite
            && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}
