import Foundation
import LocationProtocol

// The JSON form of beacon ranging: the constraint a client ranges and the beacons a scan found
// (see `WireJSON`). Beacons travel as JSON, not as binary frames: a ranging stream carries one
// message a second, not a receiver's rate.

extension WireJSON {
    struct Constraint: Codable, Equatable {
        var uuid: String
        var major: UInt16?
        var minor: UInt16?
    }

    struct Beacon: Codable, Equatable {
        var uuid: String
        var major: UInt16
        var minor: UInt16
        /// `CLProximity`'s raw value.
        var proximity: Int
        /// Metres; negative when unknown.
        var accuracy: Double
        var rssi: Int
        /// Seconds since 2001-01-01 UTC.
        var timestamp: Double
    }
}

extension WireJSON.Constraint {
    init(_ constraint: BeaconConstraint) {
        self.init(uuid: constraint.uuid.uuidString, major: constraint.major, minor: constraint.minor)
    }

    func value() throws -> BeaconConstraint {
        guard let uuid = UUID(uuidString: uuid) else { throw WireJSONError.unknown("beacon UUID", uuid) }
        return BeaconConstraint(uuid: uuid, major: major, minor: minor)
    }
}

extension WireJSON.Beacon {
    /// JSON has no NaN or infinity (the encoder would throw): a distance that is not a number is
    /// sent as unknown (−1), a time that is not one as the reference date.
    init(_ beacon: RangedBeacon) {
        uuid = beacon.identity.uuid.uuidString
        major = beacon.identity.major
        minor = beacon.identity.minor
        proximity = beacon.proximity.rawValue
        accuracy = beacon.accuracy.isFinite ? beacon.accuracy : -1
        rssi = beacon.rssi
        let seconds = beacon.timestamp.timeIntervalSinceReferenceDate
        timestamp = seconds.isFinite ? seconds : 0
    }

    /// A daemon's bad value never reaches an app as a beacon: the UUID must parse, the proximity be
    /// one `CLProximity` knows, the distance and time be numbers.
    func value() throws -> RangedBeacon {
        guard let identifier = UUID(uuidString: uuid) else { throw WireJSONError.unknown("beacon UUID", uuid) }
        guard let proximity = BeaconProximity(rawValue: proximity) else { throw WireJSONError.unknown("proximity", proximity) }
        guard accuracy.isFinite, timestamp.isFinite else { throw WireJSONError.unknown("beacon accuracy or time", accuracy) }
        return RangedBeacon(
            identity: BeaconIdentity(uuid: identifier, major: major, minor: minor), proximity: proximity,
            accuracy: accuracy, rssi: rssi, timestamp: Date(timeIntervalSinceReferenceDate: timestamp))
    }
}
