import Foundation
import LocationCore
import LocationEngine
import LocationProtocol
import LocationSources
@testable import locationctl
import Testing

/// `LocationEngine.events`: a consumer slower than the source holds the engine loop back once
/// `limit` events wait, and still receives every event.
@Suite(.timeLimit(.minutes(2)))
struct BoundedEventsTests {
    /// Emits `count` fixes, one second apart, in one go when started; counts how many `emit` returned.
    final class BurstSource: LocationSource {
        let descriptor = SourceDescriptor(name: "burst", kind: .simulation, typicalAccuracy: 5, powerCost: 0)
        let count: Int
        let emitted = Locked(0)

        init(count: Int) { self.count = count }

        func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
            let start = Date(timeIntervalSince1970: 1_750_000_000)
            let (count, emitted) = (count, emitted)
            loop.execute {
                for i in 0..<count {
                    let fix = Fix(latitude: 45 + Double(i) * 1e-4, longitude: 7, horizontalAccuracy: 5,
                                  timestamp: start.addingTimeInterval(Double(i)))
                    emit(.fix(fix))
                    emitted.withLock { $0 += 1 }
                }
            }
        }

        func stop() {}
    }

    @Test func aSlowConsumerHoldsTheLoopBackAndLosesNothing() async throws {
        let source = BurstSource(count: 500)
        let engine = LocationEngine(loop: RealtimeLoop(label: "test.bounded-events"), sources: [source])
        let request = UpdateRequest(mode: .continuous, desiredAccuracy: -1, distanceFilter: -1, pausesAutomatically: false)
        var received = 0
        var emittedBeforeConsuming: Int?
        for await event in engine.events(request, limit: 16) {
            if emittedBeforeConsuming == nil {
                // Time enough for the burst to run ahead, were it not held back.
                try await Task.sleep(for: .milliseconds(300))
                emittedBeforeConsuming = source.emitted.withLock { $0 }
            }
            if case .locations(let fixes) = event { received += fixes.count }
            if received == source.count { break }
        }
        let early = try #require(emittedBeforeConsuming)
        // 16 waiting, and the one the consumer holds.
        #expect(early <= 17, "fixes handed over while the consumer held the first: \(early)")
        #expect(received == source.count, "nothing lost")
    }
}
