/// A beacon observed while ranging, with its identity and estimated distance.
///
/// Apps receive beacons from the location manager. `open` with `init()` as on Apple platforms,
/// where tests mock beacons by subclassing.
open class CLBeacon: NSObject, NSCopying, NSSecureCoding {
    private let _uuid: UUID
    private let _major: NSNumber
    private let _minor: NSNumber
    private let _proximity: CLProximity
    private let _accuracy: CLLocationAccuracy
    private let _rssi: Int
    private let _timestamp: Date

    /// The UUID the beacon advertises.
    open var uuid: UUID { _uuid }

    /// The old name of `uuid`.
    @available(*, deprecated, renamed: "uuid")
    open var proximityUUID: UUID { uuid }

    /// The major value the beacon advertises.
    open var major: NSNumber { _major }

    /// The minor value the beacon advertises.
    open var minor: NSNumber { _minor }

    /// The relative distance to the beacon.
    open var proximity: CLProximity { _proximity }

    /// The accuracy of the proximity, metres (1σ); negative means it could not be determined.
    open var accuracy: CLLocationAccuracy { _accuracy }

    /// Received signal strength, dBm; 0 when unknown.
    open var rssi: Int { _rssi }

    /// When the beacon was observed.
    open var timestamp: Date { _timestamp }

    /// An unidentified beacon (null UUID, major and minor 0, proximity unknown), observed now.
    ///
    /// Designated, so that an app's subclass (a test mock) inherits it.
    public override init() {
        self._uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        self._major = NSNumber(value: 0)
        self._minor = NSNumber(value: 0)
        self._proximity = .unknown
        self._accuracy = -1
        self._rssi = 0
        self._timestamp = Date()
        super.init()
    }

    /// The beacon the location service reports while ranging.
    package init(
        uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue,
        proximity: CLProximity, accuracy: CLLocationAccuracy, rssi: Int, timestamp: Date
    ) {
        self._uuid = uuid
        self._major = NSNumber(value: major)
        self._minor = NSNumber(value: minor)
        self._proximity = proximity
        self._accuracy = accuracy
        self._rssi = rssi
        self._timestamp = timestamp
        super.init()
    }

    /// Apple's format: `CLBeacon (uuid:…, major:1, minor:2, proximity:3 +/- 21.54m, rssi:-64, timestamp:2020-07-24 05:58:44 +0000)`.
    open override var description: String {
        "CLBeacon (uuid:\(uuid.uuidString), major:\(major.stringValue), minor:\(minor.stringValue), "
            + "proximity:\(proximity.rawValue) +/- " + String(format: "%.2f", accuracy)
            + "m, rssi:\(rssi), timestamp:\(timestamp))"
    }

    // MARK: NSCopying, NSSecureCoding

    /// Immutable, so a copy is the object itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    public class var supportsSecureCoding: Bool { true }

    private enum CodingKey {
        static let uuid = "uuid"
        static let major = "major"
        static let minor = "minor"
        static let proximity = "proximity"
        static let accuracy = "accuracy"
        static let rssi = "rssi"
        static let timestamp = "timestamp"
    }

    public required init?(coder: NSCoder) {
        guard let uuid = coder.decodeObject(of: NSUUID.self, forKey: CodingKey.uuid),
              let major = coder.decodeObject(of: NSNumber.self, forKey: CodingKey.major),
              let minor = coder.decodeObject(of: NSNumber.self, forKey: CodingKey.minor),
              let timestamp = coder.decodeObject(of: NSDate.self, forKey: CodingKey.timestamp)
        else { return nil }
        self._uuid = uuid as UUID
        self._major = major
        self._minor = minor
        self._proximity = CLProximity(rawValue: coder.decodeInteger(forKey: CodingKey.proximity)) ?? .unknown
        self._accuracy = coder.decodeDouble(forKey: CodingKey.accuracy)
        self._rssi = coder.decodeInteger(forKey: CodingKey.rssi)
        self._timestamp = timestamp as Date
        super.init()
    }

    open func encode(with coder: NSCoder) {
        coder.encode(_uuid as NSUUID, forKey: CodingKey.uuid)
        coder.encode(_major, forKey: CodingKey.major)
        coder.encode(_minor, forKey: CodingKey.minor)
        coder.encode(_proximity.rawValue, forKey: CodingKey.proximity)
        coder.encode(_accuracy, forKey: CodingKey.accuracy)
        coder.encode(_rssi, forKey: CodingKey.rssi)
        coder.encode(_timestamp as NSDate, forKey: CodingKey.timestamp)
    }
}
