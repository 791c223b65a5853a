/// The device's orientation relative to magnetic and true north, with the raw magnetometer vector.
///
/// Apps receive headings from the location manager. Like Apple's, the class is `open` and has
/// `init()`, because tests mock headings by subclassing and overriding the properties.
open class CLHeading: NSObject, NSCopying, NSSecureCoding {
    private let _magneticHeading: CLLocationDirection
    private let _trueHeading: CLLocationDirection
    private let _headingAccuracy: CLLocationDirection
    private let _x: CLHeadingComponentValue
    private let _y: CLHeadingComponentValue
    private let _z: CLHeadingComponentValue
    private let _timestamp: Date

    /// Degrees clockwise from magnetic north, 0…359.9.
    open var magneticHeading: CLLocationDirection { _magneticHeading }

    /// Degrees clockwise from true north; negative when it cannot be determined (it needs
    /// location updates running, to know the magnetic declination).
    open var trueHeading: CLLocationDirection { _trueHeading }

    /// Maximum deviation of `magneticHeading`, degrees; negative means the heading is invalid.
    open var headingAccuracy: CLLocationDirection { _headingAccuracy }

    /// Geomagnetic field along the device's x-axis, microteslas.
    open var x: CLHeadingComponentValue { _x }
    /// Geomagnetic field along the device's y-axis, microteslas.
    open var y: CLHeadingComponentValue { _y }
    /// Geomagnetic field along the device's z-axis, microteslas.
    open var z: CLHeadingComponentValue { _z }

    /// When the heading was determined.
    open var timestamp: Date { _timestamp }

    /// An invalid heading (accuracy and true heading −1), timestamped now.
    ///
    /// Designated, so that an app's subclass (a test mock) inherits it.
    public override init() {
        self._magneticHeading = 0
        self._trueHeading = -1
        self._headingAccuracy = -1
        self._x = 0
        self._y = 0
        self._z = 0
        self._timestamp = Date()
        super.init()
    }

    /// The heading the location service reports; apps cannot create headings with values.
    package init(
        magneticHeading: CLLocationDirection, trueHeading: CLLocationDirection,
        headingAccuracy: CLLocationDirection,
        x: CLHeadingComponentValue, y: CLHeadingComponentValue, z: CLHeadingComponentValue,
        timestamp: Date
    ) {
        self._magneticHeading = magneticHeading
        self._trueHeading = trueHeading
        self._headingAccuracy = headingAccuracy
        self._x = x
        self._y = y
        self._z = z
        self._timestamp = timestamp
        super.init()
    }

    /// Apple's format: `magneticHeading 17.63 trueHeading -1.00 accuracy 25.00 x -5.680 y +18.537 z -28.310 @ 2018-01-18 03:32:35 +0000`.
    open override var description: String {
        String(
            format: "magneticHeading %.2f trueHeading %.2f accuracy %.2f x %+.3f y %+.3f z %+.3f @ ",
            magneticHeading, trueHeading, headingAccuracy, x, y, z) + timestamp.description
    }

    // MARK: NSCopying, NSSecureCoding

    /// Immutable, so a copy is the object itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    public class var supportsSecureCoding: Bool { true }

    private enum CodingKey {
        static let magneticHeading = "magneticHeading"
        static let trueHeading = "trueHeading"
        static let headingAccuracy = "headingAccuracy"
        static let x = "x"
        static let y = "y"
        static let z = "z"
        static let timestamp = "timestamp"
    }

    public required init?(coder: NSCoder) {
        guard let timestamp = coder.decodeObject(of: NSDate.self, forKey: CodingKey.timestamp) else {
            return nil
        }
        self._magneticHeading = coder.decodeDouble(forKey: CodingKey.magneticHeading)
        self._trueHeading = coder.decodeDouble(forKey: CodingKey.trueHeading)
        self._headingAccuracy = coder.decodeDouble(forKey: CodingKey.headingAccuracy)
        self._x = coder.decodeDouble(forKey: CodingKey.x)
        self._y = coder.decodeDouble(forKey: CodingKey.y)
        self._z = coder.decodeDouble(forKey: CodingKey.z)
        self._timestamp = timestamp as Date
        super.init()
    }

    open func encode(with coder: NSCoder) {
        coder.encode(_magneticHeading, forKey: CodingKey.magneticHeading)
        coder.encode(_trueHeading, forKey: CodingKey.trueHeading)
        coder.encode(_headingAccuracy, forKey: CodingKey.headingAccuracy)
        coder.encode(_x, forKey: CodingKey.x)
        coder.encode(_y, forKey: CodingKey.y)
        coder.encode(_z, forKey: CodingKey.z)
        coder.encode(_timestamp as NSDate, forKey: CodingKey.timestamp)
    }
}
