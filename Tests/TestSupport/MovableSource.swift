import Foundation
import LocationCore
import LocationProtocol
import LocationSources

/// A receiver the test carries around: a fix every `interval` seconds of loop time (one a second
/// by default), wherever it was put last.
public final class MovableSource: LocationSource, @unchecked Sendable {
    public let descriptor = SourceDescriptor(name: "movable", kind: .simulation, typicalAccuracy: 5, powerCost: 0)
    private let interval: TimeInterval
    private let position: Locked<(latitude: Double, longitude: Double)>
    private let work = Locked<ScheduledWork?>(nil)

    public init(latitude: Double, longitude: Double, interval: TimeInterval = 1) {
        position = Locked((latitude, longitude))
        self.interval = interval
    }

    public func move(latitude: Double, longitude: Double) {
        position.withLock { $0 = (latitude, longitude) }
    }

    public func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        tick(loop, emit)
    }

    public func stop() { work.withLock { $0?.cancel() } }

    private func tick(_ loop: any EngineLoop, _ emit: @escaping @Sendable (SourceEvent) -> Void) {
        let next = loop.schedule(after: interval) { [self] in
            let (latitude, longitude) = position.withLock { $0 }
            emit(.fix(Fix(latitude: latitude, longitude: longitude, horizontalAccuracy: 5,
                          speed: 1, speedAccuracy: 1, course: 0, courseAccuracy: 10, timestamp: loop.now)))
            tick(loop, emit)
        }
        work.withLock { $0 = next }
    }
}
