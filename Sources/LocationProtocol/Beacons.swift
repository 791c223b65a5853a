import Foundation

/// What identifies an iBeacon: the proximity UUID, major and minor it advertises.
public struct BeaconIdentity: Sendable, Hashable, Codable, Comparable {
    public var uuid: UUID
    public var major: UInt16
    public var minor: UInt16

    public init(uuid: UUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// UUID first, then major, then minor: the order in which ranged beacons are listed.
    public static func < (lhs: BeaconIdentity, rhs: BeaconIdentity) -> Bool {
        if lhs.uuid != rhs.uuid { return lhs.uuid.uuidString < rhs.uuid.uuidString }
        if lhs.major != rhs.major { return lhs.major < rhs.major }
        return lhs.minor < rhs.minor
    }
}

/// Which beacons an app ranges or monitors (`CLBeaconIdentityConstraint`): a UUID, optionally
/// narrowed to one major and then one minor value (nil: any).
public struct BeaconConstraint: Sendable, Hashable, Codable {
    public var uuid: UUID
    public var major: UInt16?
    public var minor: UInt16?

    public init(uuid: UUID, major: UInt16? = nil, minor: UInt16? = nil) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    public func matches(_ identity: BeaconIdentity) -> Bool {
        identity.uuid == uuid
            && (major.map { $0 == identity.major } ?? true)
            && (minor.map { $0 == identity.minor } ?? true)
    }
}

/// One advertisement heard from a beacon, as a source received it (a Bluetooth adapter, a
/// simulated beacon), before the engine smooths distance and proximity.
public struct BeaconSighting: Sendable, Equatable, Codable {
    public var identity: BeaconIdentity
    /// The advertised received strength at 1 m, dBm (the iBeacon "measured power", a signed byte).
    public var measuredPower: Int
    /// Received signal strength of this advertisement, dBm.
    public var rssi: Int
    public var timestamp: Date

    public init(identity: BeaconIdentity, measuredPower: Int, rssi: Int, timestamp: Date) {
        self.identity = identity
        self.measuredPower = measuredPower
        self.rssi = rssi
        self.timestamp = timestamp
    }
}

/// How near a beacon is; the raw values are `CLProximity`'s.
public enum BeaconProximity: Int, Sendable, Hashable, Codable, CaseIterable {
    case unknown = 0
    case immediate = 1
    case near = 2
    case far = 3
}

/// A beacon as ranging reports it (`CLBeacon`): its identity with a smoothed distance estimate.
public struct RangedBeacon: Sendable, Equatable, Codable {
    public var identity: BeaconIdentity
    public var proximity: BeaconProximity
    /// Estimated distance, metres (`CLBeacon.accuracy`); negative when it cannot be estimated.
    public var accuracy: Double
    /// Smoothed received signal strength, dBm; 0 when the beacon was not heard in the last scan.
    public var rssi: Int
    /// When the beacon was last heard.
    public var timestamp: Date

    public init(identity: BeaconIdentity, proximity: BeaconProximity, accuracy: Double, rssi: Int, timestamp: Date) {
        self.identity = identity
        self.proximity = proximity
        self.accuracy = accuracy
        self.rssi = rssi
        self.timestamp = timestamp
    }
}
