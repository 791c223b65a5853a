import CoreLocation
import CoreLocationTesting
import Foundation
import LocationCore
import LocationProtocol
import LocationSources
import TestSupport
import Testing

/// `CLServiceSession`, `CLBackgroundActivitySession` and `NSLocationRequireExplicitServiceSession`.
@Suite struct ServiceSessionTests {
    static func walk() throws -> any LocationSource { try SourceSpec("sim:walk").makeSource(speed: nil) }

    static func explicitInfo() -> AppInfo {
        var info = LocationTestHarness.defaultInfo
        info.requiresExplicitServiceSession = true
        return info
    }

    /// Iterates live updates in a task of its own and keeps them.
    final class LiveRecorder: Sendable {
        private let seen = Locked<[CLLocationUpdate]>([])
        private let task: Task<Void, Never>

        init(_ world: LocationTestHarness) {
            let seen = self.seen
            task = world.run {
                let updates = CLLocationUpdate.liveUpdates()
                return Task {
                    do {
                        for try await update in updates { seen.withLock { $0.append(update) } }
                    } catch {}
                }
            }
        }

        var updates: [CLLocationUpdate] { seen.withLock { $0 } }
        var locations: Int { updates.filter { $0.location != nil }.count }

        func stop() async {
            task.cancel()
            await task.value
        }
    }

    /// Advances virtual time a second at a time until `condition` holds. Not bounded in simulated
    /// seconds: the updates task may start only after many polls when the test pool is busy.
    static func advance(_ world: LocationTestHarness, until condition: @escaping @Sendable () -> Bool) async -> Bool {
        await eventually(timeout: .seconds(60)) {
            if condition() { return true }
            world.advance(by: 1)
            return condition()
        }
    }

    @Test func liveUpdatesWaitForAnExplicitSessionSayingSoAndStreamWhileOneIsHeld() async throws {
        let world = LocationTestHarness(sources: [try Self.walk()], info: Self.explicitInfo(), answer: .allowWhileUsing(precise: true))
        let recorder = LiveRecorder(world)
        #expect(await Self.advance(world) { recorder.updates.contains { $0.serviceSessionRequired } })
        world.advance(by: 10)
        #expect(recorder.locations == 0, "no location without a session")
        #expect(world.promptCount == 0, "no implicit session, so no prompt")

        let session = world.run { CLServiceSession(authorization: .whenInUse) }
        #expect(await Self.advance(world) { recorder.locations >= 5 })
        #expect(world.promptCount == 1, "the session asked for When In Use")

        session.invalidate()
        #expect(await Self.advance(world) { recorder.updates.last?.serviceSessionRequired == true })
        let after = recorder.locations
        world.advance(by: 20)
        #expect(recorder.locations == after, "nothing after the last session ended")
        await recorder.stop()
    }

    @Test func aNoneSessionNeverPromptsButSatisfiesTheRequirementOfAnAuthorizedApp() async throws {
        let world = LocationTestHarness(sources: [try Self.walk()], info: Self.explicitInfo())
        try world.setAuthorization(.authorizedWhenInUse)
        let session = world.run { CLServiceSession(authorization: .none) }
        let recorder = LiveRecorder(world)
        #expect(await Self.advance(world) { recorder.locations >= 3 })
        #expect(!recorder.updates.contains { $0.serviceSessionRequired })
        #expect(world.promptCount == 0)
        session.invalidate()
        await recorder.stop()
    }

    @Test func diagnosticsFollowTheAnswers() async throws {
        let denied = LocationTestHarness(sources: [try Self.walk()], answer: .dontAllow)
        let session = denied.run { CLServiceSession(authorization: .whenInUse) }
        denied.settle()
        let diagnostic = try #require(await Self.first(session.diagnostics))
        #expect(diagnostic.authorizationDenied && !diagnostic.authorizationDeniedGlobally && !diagnostic.serviceSessionRequired)
        #expect(!diagnostic.insufficientlyInUse)
        session.invalidate()
        var ended = session.diagnostics.makeAsyncIterator()
        #expect(try await ended.next() == nil, "an invalidated session's diagnostics end")

        let kept = LocationTestHarness(sources: [try Self.walk()], answer: .keepWhileUsing)
        try kept.setAuthorization(.authorizedWhenInUse, accuracy: .reducedAccuracy)
        let always = kept.run { CLServiceSession(authorization: .always) }
        kept.settle()
        #expect(kept.promptCount == 1, "the one upgrade to Always is asked")
        let upgrade = try #require(await Self.first(always.diagnostics))
        #expect(upgrade.alwaysAuthorizationDenied && upgrade.accuracyLimited && !upgrade.authorizationDenied)
        always.invalidate()
    }

    @Test func releasingTheSessionEndsIt() async throws {
        let world = LocationTestHarness(sources: [try Self.walk()], info: Self.explicitInfo())
        try world.setAuthorization(.authorizedWhenInUse)
        let recorder = LiveRecorder(world)
        do {
            let session = world.run { CLServiceSession(authorization: .none) }
            #expect(await Self.advance(world) { recorder.locations >= 1 })
            withExtendedLifetime(session) {}
        }
        #expect(await Self.advance(world) { recorder.updates.last?.serviceSessionRequired == true })
        await recorder.stop()
    }

    @Test func monitorEventsSayASessionIsRequiredUntilOneIsHeld() async throws {
        let world = try MonitorWorld(at: MonitorPlace.inside, info: Self.explicitInfo())
        let monitor = try await world.open("explicit")
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(MonitorPlace.circle, identifier: "home")
        world.advance(by: 5)
        #expect(await recorder.wait { $0.contains { $0.serviceSessionRequired } })
        let session = world.harness.run { CLServiceSession(authorization: .none) }
        world.move(to: MonitorPlace.outside)
        world.advance(by: 10)
        #expect(await recorder.wait { $0.last.map { $0.state == .unsatisfied && !$0.serviceSessionRequired } == true })
        session.invalidate()
        await recorder.stop()
    }

    @Test func aBackgroundActivitySessionIsAnImplicitSessionUnlessExplicitOnesAreRequired() async throws {
        let implicit = LocationTestHarness(sources: [try Self.walk()], answer: .allowWhileUsing(precise: true))
        let background = implicit.run { CLBackgroundActivitySession() }
        implicit.settle()
        #expect(implicit.promptCount == 1, "holding it asks for When In Use")
        let fine = try #require(await Self.first(background.diagnostics))
        #expect(!fine.serviceSessionRequired && !fine.authorizationDenied && !fine.insufficientlyInUse)
        background.invalidate()

        let explicit = LocationTestHarness(sources: [try Self.walk()], info: Self.explicitInfo())
        let waiting = explicit.run { CLBackgroundActivitySession() }
        explicit.settle()
        #expect(explicit.promptCount == 0)
        #expect(try #require(await Self.first(waiting.diagnostics)).serviceSessionRequired)
        let session = explicit.run { CLServiceSession(authorization: .none) }
        #expect(try #require(await Self.first(waiting.diagnostics)).serviceSessionRequired == false)
        session.invalidate()
        #expect(try #require(await Self.first(waiting.diagnostics)).serviceSessionRequired)
        waiting.invalidate()
    }

    static func first<S: AsyncSequence & Sendable>(_ sequence: S) async -> S.Element? where S.Element: Sendable {
        var iterator = sequence.makeAsyncIterator()
        return try? await iterator.next()
    }
}

/// `CLServiceSession(authorization:fullAccuracyPurposeKey:)`: temporary full accuracy while the
/// session that obtained it lives.
@Suite struct ServiceSessionFullAccuracyTests {
    static let purpose = "Turn-by-turn directions need your exact position."

    static func world(answer: LocationTestHarness.Answer = .allowTemporaryFullAccuracy) throws -> LocationTestHarness {
        var info = LocationTestHarness.defaultInfo
        info.temporaryUsageDescriptions = ["Navigation": purpose]
        let world = LocationTestHarness(
            sources: [FixedSource(latitude: 52.52, longitude: 13.405, horizontalAccuracy: 5)], info: info, answer: answer)
        try world.setAuthorization(.authorizedWhenInUse, accuracy: .reducedAccuracy)
        return world
    }

    @Test func theSessionAsksWithThePurposeStringAndFullAccuracyEndsWithIt() async throws {
        let world = try Self.world()
        let manager = world.run { CLLocationManager() }
        #expect(manager.accuracyAuthorization == .reducedAccuracy)
        let session = world.run { CLServiceSession(authorization: .whenInUse, fullAccuracyPurposeKey: "Navigation") }
        world.settle()
        let prompt = try #require(world.prompter.requests.last)
        #expect(prompt.kind == .temporaryFullAccuracy(purposeKey: "Navigation"))
        #expect(prompt.usageDescription == Self.purpose)
        #expect(manager.accuracyAuthorization == .fullAccuracy)
        let held = try #require(await ServiceSessionTests.first(session.diagnostics))
        #expect(!held.accuracyLimited && !held.fullAccuracyDenied)

        session.invalidate()
        world.settle()
        #expect(manager.accuracyAuthorization == .reducedAccuracy, "full accuracy ends with the session that obtained it")
    }

    @Test func aDeclinedPromptIsFullAccuracyDenied() async throws {
        let world = try Self.world(answer: .dontAllow)
        let session = world.run { CLServiceSession(authorization: .whenInUse, fullAccuracyPurposeKey: "Navigation") }
        world.settle()
        let diagnostic = try #require(await ServiceSessionTests.first(session.diagnostics))
        #expect(diagnostic.fullAccuracyDenied && diagnostic.accuracyLimited && !diagnostic.authorizationDenied)
        session.invalidate()
    }

    @Test func aSessionThatFoundFullAccuracyDoesNotEndAGrantItDidNotObtain() async throws {
        let world = try Self.world()
        let manager = world.run { CLLocationManager() }
        world.run { manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation") }
        world.settle()
        #expect(manager.accuracyAuthorization == .fullAccuracy)
        let session = world.run { CLServiceSession(authorization: .none, fullAccuracyPurposeKey: "Navigation") }
        world.settle()
        #expect(world.prompter.requests.count == 1, "already full: nothing asked")
        session.invalidate()
        world.settle()
        #expect(manager.accuracyAuthorization == .fullAccuracy)
    }
}
