import LocationCore
import LocationGeodesy
import LocationProtocol

/// A position with its accuracy, altitude, speed, course and time of measurement.
///
/// Immutable and `Sendable`, like Apple's. Every value has a validity sentinel instead of being
/// optional: a negative `horizontalAccuracy` means the coordinate is invalid, a `verticalAccuracy`
/// of 0 or less means both altitudes are invalid, and a negative speed, course, `speedAccuracy` or
/// `courseAccuracy` means that value is invalid.
///
/// The initializers are designated (not convenience) because Apple's are: a subclass may call any
/// of them through `super`.
open class CLLocation: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// The measured values exactly as given; the accessors apply the documented sentinels.
    struct Storage {
        var coordinate: CLLocationCoordinate2D
        var altitude: CLLocationDistance
        /// Stored even when `verticalAccuracy` ≤ 0, so the `Fix` bridge round-trips it.
        var ellipsoidalAltitude: CLLocationDistance
        var horizontalAccuracy: CLLocationAccuracy
        var verticalAccuracy: CLLocationAccuracy
        var course: CLLocationDirection
        var courseAccuracy: CLLocationDirectionAccuracy
        var speed: CLLocationSpeed
        var speedAccuracy: CLLocationSpeedAccuracy
        var timestamp: Date
    }

    let storage: Storage
    private let _floor: CLFloor?
    private let _sourceInformation: CLLocationSourceInformation?

    // MARK: Initializers

    /// A location at the coordinate (0, 0), with the same defaults as `init(latitude:longitude:)`.
    ///
    /// NOTE: Apple inherits `init()` from `NSObject` without documenting its values; apps use
    /// `CLLocation()` as a placeholder, so we make it the 2-argument location at (0, 0).
    public override init() {
        self.storage = Storage(
            coordinate: CLLocationCoordinate2D(), altitude: 0, ellipsoidalAltitude: 0,
            horizontalAccuracy: 0, verticalAccuracy: -1,
            course: -1, courseAccuracy: -1, speed: -1, speedAccuracy: -1,
            timestamp: Date())
        self._floor = nil
        self._sourceInformation = nil
        super.init()
    }

    /// A location at a coordinate, timestamped now.
    ///
    /// Documented defaults: altitude 0, horizontal accuracy 0, vertical accuracy −1 (altitude
    /// invalid), speed and course −1 (invalid); speed and course accuracy are −1 as well.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.storage = Storage(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
            altitude: 0, ellipsoidalAltitude: 0,
            horizontalAccuracy: 0, verticalAccuracy: -1,
            course: -1, courseAccuracy: -1, speed: -1, speedAccuracy: -1,
            timestamp: Date())
        self._floor = nil
        self._sourceInformation = nil
        super.init()
    }

    /// A location with altitude and accuracies; speed and course (and their accuracies) are −1.
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy, verticalAccuracy vAccuracy: CLLocationAccuracy,
        timestamp: Date
    ) {
        self.storage = Storage(
            coordinate: coordinate, altitude: altitude, ellipsoidalAltitude: altitude,
            horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy,
            course: -1, courseAccuracy: -1, speed: -1, speedAccuracy: -1,
            timestamp: timestamp)
        self._floor = nil
        self._sourceInformation = nil
        super.init()
    }

    /// A location with course and speed; their accuracies are −1 (unknown).
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy, verticalAccuracy vAccuracy: CLLocationAccuracy,
        course: CLLocationDirection, speed: CLLocationSpeed, timestamp: Date
    ) {
        self.storage = Storage(
            coordinate: coordinate, altitude: altitude, ellipsoidalAltitude: altitude,
            horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy,
            course: course, courseAccuracy: -1, speed: speed, speedAccuracy: -1,
            timestamp: timestamp)
        self._floor = nil
        self._sourceInformation = nil
        super.init()
    }

    /// A location with course, speed and their accuracies.
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy, verticalAccuracy vAccuracy: CLLocationAccuracy,
        course: CLLocationDirection, courseAccuracy: CLLocationDirectionAccuracy,
        speed: CLLocationSpeed, speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date
    ) {
        self.storage = Storage(
            coordinate: coordinate, altitude: altitude, ellipsoidalAltitude: altitude,
            horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy,
            course: course, courseAccuracy: courseAccuracy, speed: speed, speedAccuracy: speedAccuracy,
            timestamp: timestamp)
        self._floor = nil
        self._sourceInformation = nil
        super.init()
    }

    /// A location with every value, including where it came from.
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy, verticalAccuracy vAccuracy: CLLocationAccuracy,
        course: CLLocationDirection, courseAccuracy: CLLocationDirectionAccuracy,
        speed: CLLocationSpeed, speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date,
        sourceInfo: CLLocationSourceInformation
    ) {
        self.storage = Storage(
            coordinate: coordinate, altitude: altitude, ellipsoidalAltitude: altitude,
            horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy,
            course: course, courseAccuracy: courseAccuracy, speed: speed, speedAccuracy: speedAccuracy,
            timestamp: timestamp)
        self._floor = nil
        self._sourceInformation = sourceInfo
        super.init()
    }

    init(storage: Storage, floor: CLFloor?, sourceInformation: CLLocationSourceInformation?) {
        self.storage = storage
        self._floor = floor
        self._sourceInformation = sourceInformation
        super.init()
    }

    // MARK: Properties

    /// The latitude and longitude; valid only when `horizontalAccuracy` is not negative.
    open var coordinate: CLLocationCoordinate2D { storage.coordinate }

    /// Height above mean sea level, metres; valid only when `verticalAccuracy` > 0.
    open var altitude: CLLocationDistance { storage.altitude }

    /// Height above the WGS 84 ellipsoid, metres; `0.0` when `verticalAccuracy` ≤ 0 (documented).
    ///
    /// NOTE: Apple's initializers take only the mean-sea-level `altitude`, and Apple does not say
    /// what `ellipsoidalAltitude` a location made with them reports. Without a geoid model we
    /// cannot convert, so a location created through a public initializer reports the `altitude`
    /// it was given (a geoid separation of zero, wrong by up to ~100 m). Locations delivered by
    /// the location service carry the receiver's real ellipsoidal height.
    open var ellipsoidalAltitude: CLLocationDistance {
        storage.verticalAccuracy > 0 ? storage.ellipsoidalAltitude : 0
    }

    /// Radius of uncertainty of `coordinate`, metres; negative means the coordinate is invalid.
    open var horizontalAccuracy: CLLocationAccuracy { storage.horizontalAccuracy }

    /// Uncertainty of both altitudes (about 68 %), metres; 0 or below means they are invalid.
    open var verticalAccuracy: CLLocationAccuracy { storage.verticalAccuracy }

    /// Direction of travel, degrees clockwise from true north; negative means invalid.
    open var course: CLLocationDirection { storage.course }

    /// Uncertainty of `course`, degrees; negative means the course is invalid.
    open var courseAccuracy: CLLocationDirectionAccuracy { storage.courseAccuracy }

    /// Instantaneous speed, metres per second; negative means invalid.
    open var speed: CLLocationSpeed { storage.speed }

    /// Uncertainty of `speed`, metres per second; negative means the speed is invalid.
    open var speedAccuracy: CLLocationSpeedAccuracy { storage.speedAccuracy }

    /// When the location was determined.
    open var timestamp: Date { storage.timestamp }

    /// The floor of the building, or `nil` when unknown (always `nil` for locations apps create).
    open var floor: CLFloor? { _floor }

    /// Where the location came from; `nil` for locations created without `sourceInfo:`.
    open var sourceInformation: CLLocationSourceInformation? { _sourceInformation }

    // MARK: Distance

    /// The distance in metres to another location along the WGS 84 ellipsoid; altitude is ignored.
    ///
    /// NOTE: Apple documents a "great-circle" arc, and Apple's platforms disagree with each other
    /// by up to 0.4 % on the same pair of points. We specify the ellipsoidal geodesic (Karney), the
    /// accurate answer.
    open func distance(from location: CLLocation) -> CLLocationDistance {
        let a = coordinate, b = location.coordinate
        return Geodesic.wgs84.distance(
            latitude1: a.latitude, longitude1: a.longitude,
            latitude2: b.latitude, longitude2: b.longitude)
    }

    /// The old name of `distance(from:)`.
    @available(*, deprecated, renamed: "distance(from:)")
    open func getDistanceFrom(_ location: CLLocation) -> CLLocationDistance {
        distance(from: location)
    }

    // MARK: Description

    /// Apple's format: `<+37.33233141,-122.03121860> +/- 5.00m (speed 0.00 mps / course -1.00) @ <date>`,
    /// where the date uses the current locale's short date and full time style, as Apple's does
    /// (e.g. `10/11/2015, 16:06:32 Greenwich Mean Time` in en_GB).
    open override var description: String {
        let c = coordinate
        let head = String(
            format: "<%+.8f,%+.8f> +/- %.2fm (speed %.2f mps / course %.2f) @ ",
            c.latitude, c.longitude, horizontalAccuracy, speed, course)
        let formatter = DateFormatter()
        formatter.dateStyle = .short
        formatter.timeStyle = .full
        return head + formatter.string(from: timestamp)
    }

    // MARK: NSCopying, NSSecureCoding

    /// Immutable, so a copy is the object itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    public class var supportsSecureCoding: Bool { true }

    // NOTE: keys are ours; archives are not interchangeable with Apple's.
    private enum CodingKey {
        static let latitude = "latitude"
        static let longitude = "longitude"
        static let altitude = "altitude"
        static let ellipsoidalAltitude = "ellipsoidalAltitude"
        static let horizontalAccuracy = "horizontalAccuracy"
        static let verticalAccuracy = "verticalAccuracy"
        static let course = "course"
        static let courseAccuracy = "courseAccuracy"
        static let speed = "speed"
        static let speedAccuracy = "speedAccuracy"
        static let timestamp = "timestamp"
        static let floor = "floor"
        static let sourceInformation = "sourceInformation"
    }

    public required init?(coder: NSCoder) {
        guard let timestamp = coder.decodeObject(of: NSDate.self, forKey: CodingKey.timestamp) else {
            return nil
        }
        self.storage = Storage(
            coordinate: CLLocationCoordinate2D(
                latitude: coder.decodeDouble(forKey: CodingKey.latitude),
                longitude: coder.decodeDouble(forKey: CodingKey.longitude)),
            altitude: coder.decodeDouble(forKey: CodingKey.altitude),
            ellipsoidalAltitude: coder.decodeDouble(forKey: CodingKey.ellipsoidalAltitude),
            horizontalAccuracy: coder.decodeDouble(forKey: CodingKey.horizontalAccuracy),
            verticalAccuracy: coder.decodeDouble(forKey: CodingKey.verticalAccuracy),
            course: coder.decodeDouble(forKey: CodingKey.course),
            courseAccuracy: coder.decodeDouble(forKey: CodingKey.courseAccuracy),
            speed: coder.decodeDouble(forKey: CodingKey.speed),
            speedAccuracy: coder.decodeDouble(forKey: CodingKey.speedAccuracy),
            timestamp: timestamp as Date)
        // NOTE: corelibs' NSKeyedUnarchiver fails the whole decode when an absent key is decoded
        // (Darwin returns nil), so optional values are looked up only when present.
        self._floor = coder.containsValue(forKey: CodingKey.floor)
            ? coder.decodeObject(of: CLFloor.self, forKey: CodingKey.floor) : nil
        self._sourceInformation = coder.containsValue(forKey: CodingKey.sourceInformation)
            ? coder.decodeObject(of: CLLocationSourceInformation.self, forKey: CodingKey.sourceInformation) : nil
        super.init()
    }

    open func encode(with coder: NSCoder) {
        coder.encode(storage.coordinate.latitude, forKey: CodingKey.latitude)
        coder.encode(storage.coordinate.longitude, forKey: CodingKey.longitude)
        coder.encode(storage.altitude, forKey: CodingKey.altitude)
        coder.encode(storage.ellipsoidalAltitude, forKey: CodingKey.ellipsoidalAltitude)
        coder.encode(storage.horizontalAccuracy, forKey: CodingKey.horizontalAccuracy)
        coder.encode(storage.verticalAccuracy, forKey: CodingKey.verticalAccuracy)
        coder.encode(storage.course, forKey: CodingKey.course)
        coder.encode(storage.courseAccuracy, forKey: CodingKey.courseAccuracy)
        coder.encode(storage.speed, forKey: CodingKey.speed)
        coder.encode(storage.speedAccuracy, forKey: CodingKey.speedAccuracy)
        coder.encode(storage.timestamp as NSDate, forKey: CodingKey.timestamp)
        if let floor = _floor { coder.encode(floor, forKey: CodingKey.floor) }
        if let sourceInformation = _sourceInformation {
            coder.encode(sourceInformation, forKey: CodingKey.sourceInformation)
        }
    }
}

// MARK: - Bridge to the engine's raw sample

extension CLLocation {
    /// The location an app receives for a raw fix from the location service.
    ///
    /// Such locations always carry `sourceInformation` (as Apple's delivered locations do) and a
    /// `floor` when the fix has one; the fix's ellipsoidal height is kept as measured.
    package convenience init(fix: Fix) {
        self.init(
            storage: Storage(
                coordinate: CLLocationCoordinate2D(latitude: fix.latitude, longitude: fix.longitude),
                altitude: fix.altitude, ellipsoidalAltitude: fix.ellipsoidalAltitude,
                horizontalAccuracy: fix.horizontalAccuracy, verticalAccuracy: fix.verticalAccuracy,
                course: fix.course, courseAccuracy: fix.courseAccuracy,
                speed: fix.speed, speedAccuracy: fix.speedAccuracy,
                timestamp: fix.timestamp),
            floor: fix.floor.map { CLFloor(level: $0) },
            sourceInformation: CLLocationSourceInformation(
                softwareSimulationState: fix.isSimulated, andExternalAccessoryState: fix.isProducedByAccessory))
    }

    /// The raw fix this location holds, values exactly as stored (no sentinel masking).
    package var fix: Fix {
        Fix(
            latitude: storage.coordinate.latitude, longitude: storage.coordinate.longitude,
            altitude: storage.altitude, ellipsoidalAltitude: storage.ellipsoidalAltitude,
            horizontalAccuracy: storage.horizontalAccuracy, verticalAccuracy: storage.verticalAccuracy,
            speed: storage.speed, speedAccuracy: storage.speedAccuracy,
            course: storage.course, courseAccuracy: storage.courseAccuracy,
            timestamp: storage.timestamp,
            isSimulated: _sourceInformation?.isSimulatedBySoftware ?? false,
            isProducedByAccessory: _sourceInformation?.isProducedByAccessory ?? false,
            floor: _floor?.level)
    }
}
