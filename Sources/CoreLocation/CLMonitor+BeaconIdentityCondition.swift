import Foundation

extension CLMonitor {
    /// Satisfied while a beacon with this identity is near.
    ///
    /// NOTE: Linux has no beacon source: a monitor keeps this condition with the state
    /// `.unmonitored`, and its event has `conditionUnsupported` set.
    public struct BeaconIdentityCondition: CLCondition {
        /// The UUID beacons must advertise.
        public let uuid: UUID
        /// The major value beacons must advertise; `nil` matches any.
        public let major: CLBeaconMajorValue?
        /// The minor value beacons must advertise; `nil` matches any.
        public let minor: CLBeaconMinorValue?

        /// Beacons with this UUID, any major and minor.
        public init(uuid: UUID) {
            self.init(identity: uuid, major: nil, minor: nil)
        }

        /// Beacons with this UUID and major value, any minor.
        public init(uuid: UUID, major: CLBeaconMajorValue) {
            self.init(identity: uuid, major: major, minor: nil)
        }

        /// The beacons with exactly this identity.
        public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) {
            self.init(identity: uuid, major: major, minor: minor)
        }

        /// Any combination, as the service stores it (a minor without a major included).
        init(identity uuid: UUID, major: CLBeaconMajorValue?, minor: CLBeaconMinorValue?) {
            self.uuid = uuid
            self.major = major
            self.minor = minor
        }
    }
}
