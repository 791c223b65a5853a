import Foundation
import LocationCore
import LocationGeodesy
import LocationProtocol

/// A Bluetooth scanner hearing simulated beacons from a simulated device: once a second of loop time,
/// one advertisement from each beacon, received with the strength `SimulatedBeaconSignal` gives for
/// the distance between the beacon and where the device is then (a route being travelled, a fixed
/// point), or not at all (lost, a gap, out of range).
///
/// Each beacon has its own seeded signal, so a run is the same every time. It measures beacons only,
/// at no power (simulated), and the engine runs it only while someone ranges.
public final class SimulatedBeaconScanner: LocationSource {
    /// Where the device is at a loop time.
    public typealias DevicePosition = @Sendable (Date) -> (latitude: Double, longitude: Double)

    /// Seconds of loop time between scans.
    public static let interval: TimeInterval = 1

    public let descriptor: SourceDescriptor
    public let beacons: [SimulatedBeacon]
    private let device: DevicePosition

    private let ticker = PeriodicTicker(interval: SimulatedBeaconScanner.interval)
    /// Each beacon's signal (noise and drop-outs), in `beacons`' order.
    private let signals: Locked<[SimulatedBeaconSignal]>

    /// - Parameter seed: the first beacon's signal seed; each further beacon takes the next.
    public init(beacons: [SimulatedBeacon], device: @escaping DevicePosition, seed: UInt64 = 1, name: String) {
        self.beacons = beacons
        self.device = device
        signals = Locked(beacons.indices.map { SimulatedBeaconSignal(seed: seed &+ UInt64($0)) })
        descriptor = SourceDescriptor(name: name, kind: .simulation, typicalAccuracy: -1, powerCost: 0, measures: .beacons)
    }

    /// The device position of a source that can place a simulated scanner: a simulated route or a
    /// fixed point; nil for anything else (a real receiver is not where simulated beacons are).
    public static func devicePosition(of source: any LocationSource) -> DevicePosition? {
        if let route = source as? SimulatedRouteSource {
            return { route.travellerPosition(at: $0) }
        }
        if let fixed = source as? FixedSource {
            let point = (latitude: fixed.latitude, longitude: fixed.longitude)
            return { _ in point }
        }
        return nil
    }

    public func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        _ = ticker.start(on: loop) { [self] now in
            for sighting in scan(at: now) { emit(.beacon(sighting)) }
        }
    }

    public func stop() {
        _ = ticker.stop()
    }

    /// The beacons heard at `now`, from where the device is then.
    private func scan(at now: Date) -> [BeaconSighting] {
        let here = device(now)
        return signals.withLock { signals in
            var heard: [BeaconSighting] = []
            for (index, beacon) in beacons.enumerated() {
                let distance = Geodesic.wgs84.distance(latitude1: here.latitude, longitude1: here.longitude,
                                                       latitude2: beacon.latitude, longitude2: beacon.longitude)
                guard let rssi = signals[index].nextRSSI(measuredPower: beacon.measuredPower, distance: distance) else {
                    continue
                }
                heard.append(BeaconSighting(identity: beacon.identity, measuredPower: beacon.measuredPower, rssi: rssi, timestamp: now))
            }
            return heard
        }
    }
}
