/// The identity of the beacons to range or monitor: a UUID, and optionally major and minor values.
///
/// A `nil` major or minor is a wildcard that matches any value. Equal (and hashing equally) when
/// UUID, major and minor are all equal, so a `Set<CLBeaconIdentityConstraint>` holds each identity
/// once.
open class CLBeaconIdentityConstraint: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    private let _uuid: UUID
    private let _major: CLBeaconMajorValue?
    private let _minor: CLBeaconMinorValue?

    /// The UUID beacons must advertise.
    open var uuid: UUID { _uuid }

    /// The major value beacons must advertise; `nil` matches any.
    open var major: CLBeaconMajorValue? { _major }

    /// The minor value beacons must advertise; `nil` matches any.
    open var minor: CLBeaconMinorValue? { _minor }

    /// Beacons with this UUID, any major and minor.
    public init(uuid: UUID) {
        self._uuid = uuid
        self._major = nil
        self._minor = nil
        super.init()
    }

    /// Beacons with this UUID and major value, any minor.
    public init(uuid: UUID, major: CLBeaconMajorValue) {
        self._uuid = uuid
        self._major = major
        self._minor = nil
        super.init()
    }

    /// The beacons with exactly this identity.
    public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) {
        self._uuid = uuid
        self._major = major
        self._minor = minor
        super.init()
    }

    /// Whether a beacon with this identity satisfies the constraint (nil major/minor are wildcards).
    package func matches(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) -> Bool {
        uuid == self.uuid && (self.major.map { $0 == major } ?? true) && (self.minor.map { $0 == minor } ?? true)
    }

    // MARK: Equality

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLBeaconIdentityConstraint else { return false }
        return other.uuid == uuid && other.major == major && other.minor == minor
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(uuid)
        hasher.combine(major)
        hasher.combine(minor)
        return hasher.finalize()
    }

    open override var description: String {
        "CLBeaconIdentityConstraint (uuid:\(uuid.uuidString), major:\(major.map(String.init) ?? "(null)"), "
            + "minor:\(minor.map(String.init) ?? "(null)"))"
    }

    // MARK: NSCopying, NSSecureCoding

    /// Immutable, so a copy is the object itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    public class var supportsSecureCoding: Bool { true }

    private enum CodingKey {
        static let uuid = "uuid"
        static let major = "major"
        static let minor = "minor"
    }

    public required init?(coder: NSCoder) {
        guard let uuid = coder.decodeObject(of: NSUUID.self, forKey: CodingKey.uuid) else { return nil }
        self._uuid = uuid as UUID
        // NOTE: see CLLocation.init?(coder:): absent keys must not be decoded on corelibs.
        self._major = coder.containsValue(forKey: CodingKey.major)
            ? coder.decodeObject(of: NSNumber.self, forKey: CodingKey.major)?.uint16Value : nil
        self._minor = coder.containsValue(forKey: CodingKey.minor)
            ? coder.decodeObject(of: NSNumber.self, forKey: CodingKey.minor)?.uint16Value : nil
        super.init()
    }

    open func encode(with coder: NSCoder) {
        coder.encode(_uuid as NSUUID, forKey: CodingKey.uuid)
        if let major = _major { coder.encode(NSNumber(value: major), forKey: CodingKey.major) }
        if let minor = _minor { coder.encode(NSNumber(value: minor), forKey: CodingKey.minor) }
    }
}
