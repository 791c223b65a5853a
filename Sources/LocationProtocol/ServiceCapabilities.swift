/// What a location service's sources can measure: the answer to `CLLocationManager`'s availability class
/// methods (`headingAvailable()`, `isRangingAvailable()`, `significantLocationChangeMonitoringAvailable()`).
/// `locationd` sends its own with every welcome, so an app of the daemon learns whether the daemon has a
/// compass or a beacon scanner, as an app on an Apple device learns whether the device has one.
public struct ServiceCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A source of positions.
    public static let locations = ServiceCapabilities(rawValue: 1 << 0)
    /// A source of headings (a compass, a magnetometer, a receiver or route that reports headings).
    public static let headings = ServiceCapabilities(rawValue: 1 << 1)
    /// A source of beacon advertisements (a Bluetooth adapter, simulated beacons).
    public static let beacons = ServiceCapabilities(rawValue: 1 << 2)

    public static let all: ServiceCapabilities = [.locations, .headings, .beacons]

    /// The capabilities `provider` reports through its `has…Sources` properties.
    public init(of provider: any LocationServiceProvider) {
        self = []
        if provider.hasLocationSources { insert(.locations) }
        if provider.hasHeadingSources { insert(.headings) }
        if provider.hasBeaconSources { insert(.beacons) }
    }
}
