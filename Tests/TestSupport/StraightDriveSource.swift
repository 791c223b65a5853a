import Foundation
import LocationCore
import LocationGeodesy
import LocationProtocol
import LocationSources
import SeededRandom

/// A receiver on a device that moves in a straight line at constant speed (or stands still),
/// one fix a second of simulated time, with optional Gaussian noise: the ground truth for fence tests.
///
/// Position at `t` simulated seconds after the first start: `speed · t` metres from `start` along
/// `azimuth` (geodesic), plus noise of `noise` metres standard deviation per axis. Simulated time
/// runs `timeScale` times as fast as the loop's (fixes are stamped with it), so tests on a real
/// clock can drive for minutes in seconds.
public final class StraightDriveSource: LocationSource, @unchecked Sendable {
    public let descriptor: SourceDescriptor
    public let start: (latitude: Double, longitude: Double)
    public let azimuth: Double
    public let speed: Double
    public let accuracy: Double
    public let noise: Double
    public let timeScale: Double
    private let state: Locked<State>

    private struct State {
        var origin: Date?
        var tick: ScheduledWork?
        var generation = 0
        var random: SplitMix64
    }

    public init(
        start: (latitude: Double, longitude: Double), azimuth: Double = 90, speed: Double, accuracy: Double = 5,
        noise: Double = 0, seed: UInt64 = 1, typicalAccuracy: Double? = nil, powerCost: Double = 0, name: String = "straight-drive",
        timeScale: Double = 1
    ) {
        self.timeScale = timeScale
        self.start = start
        self.azimuth = azimuth
        self.speed = speed
        self.accuracy = accuracy
        self.noise = noise
        descriptor = SourceDescriptor(name: name, kind: .simulation, typicalAccuracy: typicalAccuracy ?? accuracy, powerCost: powerCost)
        state = Locked(State(random: SplitMix64(seed: seed)))
    }

    /// Where the device truly is `seconds` after the first start.
    public func truePosition(after seconds: TimeInterval) -> (latitude: Double, longitude: Double) {
        let end = Geodesic.wgs84.direct(latitude: start.latitude, longitude: start.longitude, azimuth: azimuth, distance: speed * seconds)
        return (end.latitude, end.longitude)
    }

    /// The loop time of the first start (nil before).
    public var origin: Date? { state.withLock { $0.origin } }

    public func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        let generation = state.withLock { state -> Int in
            if state.origin == nil { state.origin = loop.now }
            state.generation += 1
            return state.generation
        }
        tick(on: loop, generation: generation, emit: emit)
    }

    public func stop() {
        state.withLock { state in
            state.generation += 1
            state.tick?.cancel()
            state.tick = nil
        }
    }

    private func tick(on loop: any EngineLoop, generation: Int, emit: @escaping @Sendable (SourceEvent) -> Void) {
        let fix: Fix? = state.withLock { state in
            guard state.generation == generation, let origin = state.origin else { return nil }
            let seconds = loop.now.timeIntervalSince(origin) * timeScale
            var position = truePosition(after: seconds)
            if noise > 0 {
                let north = noise * state.random.gaussian()
                let east = noise * state.random.gaussian()
                position.latitude += north / 111_320
                position.longitude += east / (111_320 * cos(position.latitude * .pi / 180))
            }
            return Fix(latitude: position.latitude, longitude: position.longitude, horizontalAccuracy: accuracy,
                       speed: speed, speedAccuracy: 1, course: azimuth, courseAccuracy: 5, timestamp: origin.addingTimeInterval(seconds),
                       isSimulated: true)
        }
        guard let fix else { return }
        emit(.fix(fix))
        let next = loop.schedule(after: 1 / timeScale) { [weak self] in self?.tick(on: loop, generation: generation, emit: emit) }
        state.withLock { state in
            if state.generation == generation { state.tick = next } else { next.cancel() }
        }
    }
}

extension SplitMix64 {
    /// A standard normal sample (Box–Muller).
    mutating func gaussian() -> Double {
        let u1 = max(unit(), .leastNonzeroMagnitude)
        let u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}
