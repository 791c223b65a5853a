import Foundation
import LocationCore
import LocationProtocol
import LocationSources

/// A receiver the test carries around: a fix once per second of loop time, wherever it was put last.
final class MovableSource: LocationSource, @unchecked Sendable {
    let descriptor = SourceDescriptor(name: "movable", kind: .simulation, typicalAccuracy: 5, powerCost: 0)
    private let position: Locked<(latitude: Double, longitude: Double)>
    private let work = Locked<ScheduledWork?>(nil)

    init(latitude: Double, longitude: Double) {
        position = Locked((latitude, longitude))
    }

    func move(latitude: Double, longitude: Double) {
        position.withLock { $0 = (latitude, longitude) }
    }

    func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        tick(loop, emit)
    }

    func stop() { work.withLock { $0?.cancel() } }

    private func tick(_ loop: any EngineLoop, _ emit: @escaping @Sendable (SourceEvent) -> Void) {
        let next = loop.schedule(after: 1) { [self] in
            let (latitude, longitude) = position.withLock { $0 }
            emit(.fix(Fix(latitude: latitude, longitude: longitude, horizontalAccuracy: 5,
                          speed: 1, speedAccuracy: 1, course: 0, courseAccuracy: 10, timestamp: loop.now)))
            tick(loop, emit)
        }
        work.withLock { $0 = next }
    }
}
