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

    private struct State {
        var running = false
        var generation: UInt64 = 0
        var pending: ScheduledWork?
        var signals: [SimulatedBeaconSignal]
    }

    private let state: Locked<State>

    /// - Parameter seed: the first beacon's signal seed; each further beacon takes the next.
    public init(beacons: [SimulatedBeacon], device: @escaping DevicePosition, seed: UInt64 = 1, name: String) {
        self.beacons = beacons
        self.device = device
        state = Locked(State(signals: beacons.indices.map { SimulatedBeaconSignal(seed: seed &+ UInt64($0)) }))
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
        let generation: UInt64? = state.withLock { state in
            guard !state.running else { return nil }
            state.running = true
            state.generation &+= 1
            return state.generation
        }
        guard let generation else { return }
        schedule(generation, at: loop.now, on: loop, emit: emit)
    }

    public func stop() {
        let pending = state.withLock { state -> ScheduledWork? in
            state.running = false
            state.generation &+= 1
            defer { state.pending = nil }
            return state.pending
        }
        pending?.cancel()
    }

    private func schedule(_ generation: UInt64, at deadline: Date, on loop: any EngineLoop,
                          emit: @escaping @Sendable (SourceEvent) -> Void) {
        let work = loop.schedule(at: deadline) { [self] in scan(generation, on: loop, emit: emit) }
        let current = state.withLock { state -> Bool in
            guard state.running, state.generation == generation else { return false }
            state.pending = work
            return true
        }
        if !current { work.cancel() }
    }

    private func scan(_ generation: UInt64, on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        let now = loop.now
        let here = device(now)
        let sightings: [BeaconSighting]? = state.withLock { state in
            guard state.running, state.generation == generation else { return nil }
            var heard: [BeaconSighting] = []
            for (index, beacon) in beacons.enumerated() {
                let distance = Geodesic.wgs84.distance(latitude1: here.latitude, longitude1: here.longitude,
                                                       latitude2: beacon.latitude, longitude2: beacon.longitude)
                guard let rssi = state.signals[index].nextRSSI(measuredPower: beacon.measuredPower, distance: distance) else {
                    continue
                }
                heard.append(BeaconSighting(identity: beacon.identity, measuredPower: beacon.measuredPower, rssi: rssi, timestamp: now))
            }
            return heard
        }
        guard let sightings else { return }
        for sighting in sightings { emit(.beacon(sighting)) }
        schedule(generation, at: now.addingTimeInterval(Self.interval), on: loop, emit: emit)
    }
}
