import Foundation
import LocationCore
import LocationProtocol
import LocationSources

/// A source that reports where a traveller on `track` is at the loop's time (the track starts at
/// `epoch`, whether or not the source runs), with seeded Gaussian error of `accuracy` / 1.515 per
/// axis (an honest 68 % radius), once a second while running. Its descriptor declares its accuracy
/// and power, so the engine can choose between a precise and a cheap one.
final class RouteTestSource: LocationSource, @unchecked Sendable {
    let descriptor: SourceDescriptor
    private let track: TimedTrack
    private let epoch: Date
    private let accuracy: Double
    private var noise: GaussianNoise
    private var work: ScheduledWork?
    private var running = false

    init(name: String, track: TimedTrack, epoch: Date, accuracy: Double, milliwatts: Double, seed: UInt64) {
        descriptor = SourceDescriptor(name: name, kind: .simulation, typicalAccuracy: accuracy, powerCost: milliwatts)
        self.track = track
        self.epoch = epoch
        self.accuracy = accuracy
        noise = GaussianNoise(seed: seed)
    }

    func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        running = true
        tick(on: loop, emit: emit, after: 0)
    }

    func stop() {
        running = false
        work?.cancel()
        work = nil
    }

    private func tick(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void, after delay: TimeInterval) {
        work = loop.schedule(after: delay) { [self] in
            guard running else { return }
            let now = loop.now
            let truth = track.position(at: now.timeIntervalSince(epoch))
            let (lat, lon) = noise.displace(latitude: truth.latitude, longitude: truth.longitude,
                                            sigma: accuracy / FenceJudgeNoiseTests.honestRatio)
            emit(.fix(Fix(latitude: lat, longitude: lon, horizontalAccuracy: accuracy, timestamp: now, isSimulated: true)))
            tick(on: loop, emit: emit, after: 1)
        }
    }
}
