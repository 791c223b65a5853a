import LocationProtocol

/// A beacon placed in the simulated world (`beacon:UUID,MAJOR,MINOR,POWER@LAT,LON`).
public struct SimulatedBeacon: Sendable, Equatable {
    public var identity: BeaconIdentity
    /// The strength it advertises for 1 m, dBm.
    public var measuredPower: Int
    public var latitude: Double
    public var longitude: Double

    public init(identity: BeaconIdentity, measuredPower: Int, latitude: Double, longitude: Double) {
        self.identity = identity
        self.measuredPower = measuredPower
        self.latitude = latitude
        self.longitude = longitude
    }
}
