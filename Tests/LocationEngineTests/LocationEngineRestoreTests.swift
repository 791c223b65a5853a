import Foundation
import LocationCore
import LocationEngine
import LocationProtocol
import LocationSources
import Testing

/// `restoreLastFix(_:)`: a fix from before the engine started (locationd's sealed copy) is the cached
/// fix until the engine has one of its own.
@Suite struct LocationEngineRestoreTests {
    static let saved = Fix(latitude: 48.85, longitude: 2.35, horizontalAccuracy: 12, timestamp: VirtualLoop.defaultEpoch.addingTimeInterval(-3600))

    @Test func aRestoredFixIsHandedToNewSubscribersAtOnce() {
        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: [TickingSource(interval: 1000, script: { _, _ in nil })])
        engine.restoreLastFix(Self.saved)
        loop.run()
        #expect(engine.status.lastFix == Self.saved)
        let log = EventLog()
        _ = engine.subscribe(UpdateRequest()) { log.record($0) }
        loop.run()
        #expect(log.fixes == [Self.saved])
    }

    @Test func theEnginesOwnFixWins() {
        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: [TickingSource(script: TestFixes.standingStill())])
        let subscription = engine.subscribe(UpdateRequest()) { _ in }
        loop.run()
        let own = engine.status.lastFix
        #expect(own != nil)
        engine.restoreLastFix(Self.saved)
        loop.run()
        #expect(engine.status.lastFix == own)
        subscription.cancel()
    }

    @Test func anInvalidFixIsNotRestored() {
        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: [])
        var invalid = Self.saved
        invalid.horizontalAccuracy = -1
        engine.restoreLastFix(invalid)
        loop.run()
        #expect(engine.status.lastFix == nil)
    }
}
