import Foundation

extension CLMonitor {
    /// Satisfied while a beacon with this identity is near.
    ///
    /// Satisfied as soon as a beacon that matches is heard, unsatisfied once none has been heard
    /// for 30 seconds (Apple's devices report leaving a beacon region about half a minute after its
    /// last advertisement). Needs full accuracy (else the event is `accuracyLimited`).
    ///
    /// NOTE: without a beacon source (`CLLocationManager.isRangingAvailable()` false), a monitor
    /// keeps this condition with the state `.unmonitored` and `conditionUnsupported` set, as on a
    /// device without Bluetooth LE.
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
