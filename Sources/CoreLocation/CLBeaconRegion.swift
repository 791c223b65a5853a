/// A region defined by the presence of iBeacon devices with a given identity.
///
/// Equal to another `CLBeaconRegion` with the same identifier (see `CLRegion`).
open class CLBeaconRegion: CLRegion {
    private let _beaconIdentityConstraint: CLBeaconIdentityConstraint

    /// Whether entry-state notifications are also sent when the user turns the display on.
    /// Default `false`.
    open var notifyEntryStateOnDisplay: Bool = false

    /// The identity of the beacons that define the region.
    open var beaconIdentityConstraint: CLBeaconIdentityConstraint { _beaconIdentityConstraint }

    /// The UUID of the beacons.
    open var uuid: UUID { _beaconIdentityConstraint.uuid }

    /// The major value of the beacons, or `nil` for any.
    open var major: NSNumber? { _beaconIdentityConstraint.major.map { NSNumber(value: $0) } }

    /// The minor value of the beacons, or `nil` for any.
    open var minor: NSNumber? { _beaconIdentityConstraint.minor.map { NSNumber(value: $0) } }

    /// The old name of `uuid`.
    @available(*, deprecated, renamed: "uuid")
    open var proximityUUID: UUID { uuid }

    // MARK: Initializers

    /// A region for the beacons that satisfy a constraint.
    public init(beaconIdentityConstraint: CLBeaconIdentityConstraint, identifier: String) {
        self._beaconIdentityConstraint = beaconIdentityConstraint
        super.init(identifier: identifier, circle: nil)
    }

    /// A region for beacons with this UUID, any major and minor.
    public convenience init(uuid: UUID, identifier: String) {
        self.init(beaconIdentityConstraint: CLBeaconIdentityConstraint(uuid: uuid), identifier: identifier)
    }

    /// A region for beacons with this UUID and major value, any minor.
    public convenience init(uuid: UUID, major: CLBeaconMajorValue, identifier: String) {
        self.init(
            beaconIdentityConstraint: CLBeaconIdentityConstraint(uuid: uuid, major: major), identifier: identifier)
    }

    /// A region for the beacons with exactly this identity.
    public convenience init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, identifier: String) {
        self.init(
            beaconIdentityConstraint: CLBeaconIdentityConstraint(uuid: uuid, major: major, minor: minor),
            identifier: identifier)
    }

    // Apple's documentation lists these Objective-C-derived spellings as well. We accept them,
    // with a fix-it to the Swift names, so code using either compiles.

    @available(*, deprecated, renamed: "init(uuid:identifier:)")
    public convenience init(UUID uuid: UUID, identifier: String) {
        self.init(uuid: uuid, identifier: identifier)
    }

    @available(*, deprecated, renamed: "init(uuid:major:identifier:)")
    public convenience init(UUID uuid: UUID, major: CLBeaconMajorValue, identifier: String) {
        self.init(uuid: uuid, major: major, identifier: identifier)
    }

    @available(*, deprecated, renamed: "init(uuid:major:minor:identifier:)")
    public convenience init(UUID uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, identifier: String) {
        self.init(uuid: uuid, major: major, minor: minor, identifier: identifier)
    }

    @available(*, deprecated, renamed: "init(uuid:identifier:)")
    public convenience init(proximityUUID: UUID, identifier: String) {
        self.init(uuid: proximityUUID, identifier: identifier)
    }

    @available(*, deprecated, renamed: "init(uuid:major:identifier:)")
    public convenience init(proximityUUID: UUID, major: CLBeaconMajorValue, identifier: String) {
        self.init(uuid: proximityUUID, major: major, identifier: identifier)
    }

    @available(*, deprecated, renamed: "init(uuid:major:minor:identifier:)")
    public convenience init(
        proximityUUID: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, identifier: String
    ) {
        self.init(uuid: proximityUUID, major: major, minor: minor, identifier: identifier)
    }

    // MARK: Advertising

    /// The iBeacon advertisement for this region, to pass to a Bluetooth peripheral manager.
    ///
    /// The dictionary has one key, `"kCBAdvDataAppleBeaconKey"` (Core Bluetooth's key for iBeacon
    /// data), whose value is 21 bytes of `Data`: the 16-byte UUID, major and minor as big-endian
    /// `UInt16` (0 when the region has none), and the measured power at 1 m as a signed byte.
    ///
    /// NOTE: Apple substitutes the device's calibrated power for `nil`; Linux has no calibration,
    /// so `nil` means −59 dBm, a typical value for phones and beacons.
    open func peripheralData(withMeasuredPower measuredPower: NSNumber?) -> NSMutableDictionary {
        var bytes = [UInt8]()
        bytes.reserveCapacity(21)
        withUnsafeBytes(of: uuid.uuid) { bytes.append(contentsOf: $0) }
        let major = _beaconIdentityConstraint.major ?? 0
        let minor = _beaconIdentityConstraint.minor ?? 0
        bytes += [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF)]
        let power = measuredPower?.int8Value ?? Self.defaultMeasuredPower
        bytes.append(UInt8(bitPattern: power))
        let dictionary = NSMutableDictionary()
        dictionary[Self.advertisementDataKey] = NSData(data: Data(bytes))
        return dictionary
    }

    /// Core Bluetooth's advertisement-data key for iBeacon payloads.
    static let advertisementDataKey = "kCBAdvDataAppleBeaconKey"

    /// RSSI at 1 m used when the caller passes `nil`, dBm.
    static let defaultMeasuredPower: Int8 = -59

    // MARK: Description, copying, coding

    /// Apple's format: `CLBeaconRegion (identifier:'lobby', uuid:…, major:1, minor:(null))`.
    open override var description: String {
        "CLBeaconRegion (identifier:'\(identifier)', uuid:\(uuid.uuidString), "
            + "major:\(major.map { $0.stringValue } ?? "(null)"), minor:\(minor.map { $0.stringValue } ?? "(null)"))"
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = CLBeaconRegion(beaconIdentityConstraint: _beaconIdentityConstraint, identifier: identifier)
        copy.copyNotifyFlags(from: self)
        copy.notifyEntryStateOnDisplay = notifyEntryStateOnDisplay
        return copy
    }

    private enum CodingKey {
        static let beaconIdentityConstraint = "beaconIdentityConstraint"
        static let notifyEntryStateOnDisplay = "notifyEntryStateOnDisplay"
    }

    public required init?(coder: NSCoder) {
        guard let constraint = coder.decodeObject(
            of: CLBeaconIdentityConstraint.self, forKey: CodingKey.beaconIdentityConstraint)
        else { return nil }
        self._beaconIdentityConstraint = constraint
        super.init(coder: coder)
        self.notifyEntryStateOnDisplay = coder.decodeBool(forKey: CodingKey.notifyEntryStateOnDisplay)
    }

    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(_beaconIdentityConstraint, forKey: CodingKey.beaconIdentityConstraint)
        coder.encode(notifyEntryStateOnDisplay, forKey: CodingKey.notifyEntryStateOnDisplay)
    }
}
