import Foundation
import LocationCore
import LocationProtocol

/// What a source promises, so the engine can pick the cheapest one that satisfies current demand.
public struct SourceDescriptor: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        case fixed, gpx, simulation, nmea, gpsd, compass, iio, sensorproxy, bluez
    }

    /// What a source reports: positions, headings, or both.
    public struct Measurements: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let location = Measurements(rawValue: 1 << 0)
        public static let heading = Measurements(rawValue: 1 << 1)
        /// Beacon advertisements (a Bluetooth adapter scanning, simulated beacons).
        public static let beacons = Measurements(rawValue: 1 << 2)
    }

    /// The spec the source was made from, e.g. `sim:city-drive`.
    public var name: String
    public var kind: Kind
    /// Typical horizontal accuracy of its fixes, metres.
    public var typicalAccuracy: Double
    /// Power drawn while delivering fixes, milliwatts (0 for simulated sources): what the engine
    /// compares to pick the cheapest sufficient source.
    public var powerCost: Double { power.trackingMilliwatts }
    /// Power drawn in each state, for the energy accounting.
    public var power: PowerProfile
    /// What it reports. The engine runs a source for headings only when it says `.heading`, for
    /// locations only when it says `.location`, and for beacon ranging only when it says `.beacons`;
    /// a receiver that runs for locations passes on any heading it happens to report.
    public var measures: Measurements

    /// A source drawing `powerCost` milliwatts whenever it runs and nothing when stopped.
    public init(name: String, kind: Kind, typicalAccuracy: Double, powerCost: Double,
                measures: Measurements = .location) {
        self.init(name: name, kind: kind, typicalAccuracy: typicalAccuracy, power: .constant(powerCost), measures: measures)
    }

    public init(name: String, kind: Kind, typicalAccuracy: Double, power: PowerProfile,
                measures: Measurements = .location) {
        self.name = name
        self.kind = kind
        self.typicalAccuracy = typicalAccuracy
        self.power = power
        self.measures = measures
    }
}

/// What a running source reports to the engine.
public enum SourceEvent: Sendable, Equatable {
    /// A new position sample.
    case fix(Fix)
    /// A new heading sample (a magnetometer, a compass sentence, gpsd's attitude).
    case heading(HeadingSample)
    /// An advertisement heard from a beacon.
    case beacon(BeaconSighting)
    /// The source is running but has no position right now (no satellites, device gone, daemon down);
    /// from a beacon source: it cannot scan now (adapter off or gone).
    case noFix(reason: String)
    /// The source has nothing more to give (a replayed file reached its end).
    case finished
}

/// A producer of raw samples.
///
/// A source is started and stopped by the engine, from inside the engine loop, and calls `emit`
/// from inside the same loop. Sources schedule their own work with the loop, so they follow
/// virtual time in tests.
public protocol LocationSource: AnyObject, Sendable {
    var descriptor: SourceDescriptor { get }
    func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void)
    func stop()
}
