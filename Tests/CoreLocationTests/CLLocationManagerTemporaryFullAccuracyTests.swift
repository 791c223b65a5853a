import CoreLocation
import CoreLocationTesting
import Foundation
import LocationAccess
import LocationBootstrap
import LocationCore
import LocationPolicy
import LocationProtocol
import LocationSources
import TestSupport
import Testing

/// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)` in its three spellings, in the
/// in-process service: Apple's `promptDeclined` rules, the purpose string in the prompt, the grant as
/// an authorization change, and its end with the process that asked.
@Suite struct CLLocationManagerTemporaryFullAccuracyTests {
    static let purpose = "Turn-by-turn directions need your exact position."

    static var info: AppInfo {
        var info = LocationTestHarness.defaultInfo
        info.temporaryUsageDescriptions = ["Navigation": purpose]
        return info
    }

    /// An app authorized When In Use with `accuracy`, on a receiver 5 m accurate, whose user answers
    /// temporary full accuracy prompts with `answer`.
    static func world(
        accuracy: CLAccuracyAuthorization = .reducedAccuracy, answer: LocationTestHarness.Answer? = .allowTemporaryFullAccuracy,
        source: any LocationSource = FixedSource(latitude: 52.52, longitude: 13.405, horizontalAccuracy: 5)
    ) throws -> LocationTestHarness {
        let world = LocationTestHarness(sources: [source], info: info, answer: answer)
        try world.setAuthorization(.authorizedWhenInUse, accuracy: accuracy)
        return world
    }

    /// What a completion handler was called with, and on which thread.
    final class Completions: @unchecked Sendable {
        private let calls = Locked<[(code: CLError.Code?, thread: ObjectIdentifier)]>([])
        var handler: @Sendable ((any Error)?) -> Void {
            { error in
                let thread = ObjectIdentifier(Thread.current)
                self.calls.withLock { $0.append(((error as? CLError)?.code ?? (error == nil ? nil : .locationUnknown), thread)) }
            }
        }
        var codes: [CLError.Code?] { calls.withLock { $0.map(\.code) } }
        var threads: Set<ObjectIdentifier> { calls.withLock { Set($0.map(\.thread)) } }
    }

    @Test func withCompletionThePromptShowsThePurposeAndAllowOnceGrantsFullAccuracy() throws {
        let world = try Self.world()
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            // Ignored while reduced: the app still gets approximate locations.
            manager.desiredAccuracy = kCLLocationAccuracyBest
            manager.startUpdatingLocation()
            world.advance(by: 5)
            #expect(manager.accuracyAuthorization == .reducedAccuracy)
            #expect(!delegate.locations.isEmpty && delegate.locations.allSatisfy { $0.horizontalAccuracy >= 1000 })
            delegate.clear()

            let completions = Completions()
            manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation", completion: completions.handler)
            world.advance(by: 5)
            #expect(completions.codes == [nil], "nil: the prompt was shown")
            #expect(completions.threads == [ObjectIdentifier(Thread.current)], "on the delegate's thread")
            let prompt = world.prompter.requests.last
            #expect(prompt?.kind == .temporaryFullAccuracy(purposeKey: "Navigation"))
            #expect(prompt?.usageDescription == Self.purpose)
            #expect(manager.accuracyAuthorization == .fullAccuracy)
            #expect(delegate.authorizationEvents == [.authorization(.authorizedWhenInUse, .fullAccuracy)])
            // Precise locations from now on.
            #expect(delegate.locations.last.map { $0.horizontalAccuracy <= 5 } == true)
        }
    }

    /// Counts the calls of the one-argument method, to show which overload a one-argument call picks.
    final class CountingManager: CLLocationManager {
        var plainCalls = 0
        override func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String) {
            plainCalls += 1
            super.requestTemporaryFullAccuracyAuthorization(withPurposeKey: purposeKey)
        }
    }

    @Test func theOneArgumentCallIsThePlainMethodAndGrantsAsWell() throws {
        let world = try Self.world()
        world.run {
            let delegate = RecordingDelegate()
            let manager = CountingManager()
            manager.delegate = delegate
            world.settle()
            delegate.clear()
            manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation")
            world.settle()
            #expect(manager.plainCalls == 1, "resolved to the method without a completion")
            #expect(world.prompter.requests.last?.usageDescription == Self.purpose)
            #expect(manager.accuracyAuthorization == .fullAccuracy)
            #expect(delegate.authorizationEvents == [.authorization(.authorizedWhenInUse, .fullAccuracy)])
        }
    }

    /// Calls the `async` spelling with each key in turn, from a task, for a manager living on a
    /// thread of its own that runs the world and serves the manager's callbacks (blocking no
    /// cooperative thread); the outcomes, and the accuracy the manager read after each.
    static func asyncOutcomes(_ keys: [String], in world: LocationTestHarness) async -> [Outcome]? {
        let result = Locked<[Outcome]?>(nil)
        Thread {
            world.run {
                let box = UncheckedBox(CLLocationManager())
                world.settle()
                let task = Task {
                    var outcomes: [Outcome] = []
                    for key in keys {
                        var code: CLError.Code?
                        do {
                            try await box.value.requestTemporaryFullAccuracyAuthorization(withPurposeKey: key)
                        } catch {
                            code = (error as? CLError)?.code ?? .locationUnknown
                        }
                        outcomes.append(Outcome(error: code, accuracy: box.value.accuracyAuthorization))
                    }
                    result.withLock { $0 = outcomes }
                }
                let deadline = Date().addingTimeInterval(170)
                while result.withLock({ $0 == nil }), Date() < deadline {
                    world.settle()
                    Thread.sleep(forTimeInterval: 0.002)
                }
                task.cancel()
            }
        }.start()
        // Generous on the wall clock: in a full parallel run other tests may hold the cooperative threads.
        _ = await eventually(timeout: .seconds(180)) { result.withLock { $0 != nil } }
        return result.withLock { $0 }
    }

    struct Outcome: Sendable, Equatable {
        var error: CLError.Code?
        var accuracy: CLAccuracyAuthorization
    }

    struct UncheckedBox<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    @Test func theAsyncFormReturnsOnceAnsweredAndThrowsPromptDeclined() async throws {
        let world = try Self.world()
        let outcomes = await Self.asyncOutcomes(["Radar", "Navigation", "Navigation"], in: world)
        #expect(outcomes == [
            Outcome(error: .promptDeclined, accuracy: .reducedAccuracy),  // no such purpose key
            Outcome(error: nil, accuracy: .fullAccuracy),                 // granted, and already so when it returns
            Outcome(error: .promptDeclined, accuracy: .fullAccuracy),     // already full
        ])
        #expect(world.promptCount == 1)
    }

    @Test func dontAllowCompletesWithoutErrorAndKeepsApproximate() throws {
        let world = try Self.world(answer: .denyTemporaryFullAccuracy)
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            world.settle()
            delegate.clear()
            let completions = Completions()
            manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation", completion: completions.handler)
            world.settle()
            #expect(completions.codes == [nil])
            #expect(world.promptCount == 1)
            #expect(manager.accuracyAuthorization == .reducedAccuracy)
            #expect(delegate.authorizationEvents.isEmpty, "nothing changed, so no callback")
        }
    }

    @Test func declinedWithoutAPromptWhenTheKeyIsMissingAccuracyIsFullOrTheAppIsNotAuthorized() throws {
        for (accuracy, status, key) in [
            (CLAccuracyAuthorization.reducedAccuracy, CLAuthorizationStatus.authorizedWhenInUse, "Radar"),
            (.fullAccuracy, .authorizedWhenInUse, "Navigation"),
            (.reducedAccuracy, .denied, "Navigation"),
            (.reducedAccuracy, .notDetermined, "Navigation"),
        ] {
            let world = try Self.world(accuracy: accuracy)
            if status != .authorizedWhenInUse { try world.setAuthorization(status, accuracy: accuracy) }
            world.run {
                let manager = CLLocationManager()
                world.settle()
                let completions = Completions()
                manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: key, completion: completions.handler)
                world.settle()
                #expect(completions.codes == [.promptDeclined], "\(accuracy) \(status) \(key)")
                #expect(world.promptCount == 0)
            }
        }
    }

    @Test func withNobodyToAnswerTheCompletionStillComesWithPromptDeclined() throws {
        let world = try Self.world(answer: nil)
        world.run {
            let manager = CLLocationManager()
            let completions = Completions()
            manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation", completion: completions.handler)
            world.settle()
            #expect(completions.codes == [.promptDeclined])
            #expect(manager.accuracyAuthorization == .reducedAccuracy)
        }
    }

    @Test func theGrantEndsWhenTheProcessThatAskedExitsAndOtherInstancesAreTold() throws {
        let world = try Self.world()
        let asker = ProcessStamp(pid: 5151, startTime: 9)
        world.liveProcesses.withLock { _ = $0.insert(asker) }
        world.run {
            let delegate = RecordingDelegate()
            let other = CLLocationManager()
            other.delegate = delegate
            world.settle()
            delegate.clear()

            var asking: CLLocationManager? = LocationSystem.$override.withValue(world.system(as: asker)) { CLLocationManager() }
            asking?.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation")
            world.settle()
            #expect(asking?.accuracyAuthorization == .fullAccuracy)
            #expect(other.accuracyAuthorization == .fullAccuracy, "the app has it, in every process while the asker runs")
            #expect((try? world.store.read())?.apps[world.app.id]?.temporaryFullAccuracy?.process == asker)

            // The asking process exits.
            world.liveProcesses.withLock { _ = $0.remove(asker) }
            asking = nil
            world.settle()
            #expect(other.accuracyAuthorization == .reducedAccuracy)
            #expect(delegate.authorizationEvents == [
                .authorization(.authorizedWhenInUse, .fullAccuracy), .authorization(.authorizedWhenInUse, .reducedAccuracy),
            ])
            #expect(CLLocationManager().accuracyAuthorization == .reducedAccuracy, "a new manager starts reduced")
        }
    }

    @Test func regionMonitoringWorksWhileGrantedAndIsDeniedAgainAtExpiry() throws {
        let source = MovableSource(latitude: 52.53, longitude: 13.405, interval: 1)
        let world = try Self.world(source: source)
        let asker = ProcessStamp(pid: 6161, startTime: 3)
        world.liveProcesses.withLock { _ = $0.insert(asker) }
        world.run {
            var manager: CLLocationManager? = LocationSystem.$override.withValue(world.system(as: asker)) { CLLocationManager() }
            let recorder = RegionRecorder()
            manager?.delegate = recorder
            manager?.startMonitoring(for: CLCircularRegion(
                center: CLLocationCoordinate2D(latitude: 52.52, longitude: 13.405), radius: 200, identifier: "office"))
            world.advance(by: 10)
            #expect(recorder.events.contains(.failed("office", .regionMonitoringDenied)), "unavailable while reduced")

            manager?.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation")
            world.advance(by: 10)
            source.move(latitude: 52.52, longitude: 13.405)
            world.advance(by: 30)
            #expect(recorder.crossings == [.entered("office")], "fences work while granted")

            // The asker exits: a process of the app that runs on is reduced again and its fences stop.
            world.liveProcesses.withLock { _ = $0.remove(asker) }
            manager = nil
            let next = CLLocationManager()
            let later = RegionRecorder()
            next.delegate = later
            world.advance(by: 5)
            source.move(latitude: 52.53, longitude: 13.405)
            world.advance(by: 30)
            #expect(next.accuracyAuthorization == .reducedAccuracy)
            #expect(later.crossings.isEmpty, "no exit reported to a reduced-accuracy app")
        }
    }

    @Test func liveUpdatesAreAccuracyLimitedOnlyWhileReduced() async throws {
        let world = try Self.world()
        let asker = ProcessStamp(pid: 7171, startTime: 1)
        world.liveProcesses.withLock { _ = $0.insert(asker) }
        let updates = await world.run {
            let task = Task {
                var seen: [CLLocationUpdate] = []
                for try await update in CLLocationUpdate.liveUpdates() where update.location != nil {
                    seen.append(update)
                    if seen.count == 1 {
                        // Another process of the app is granted temporary full accuracy.
                        try world.store.update { $0.apps[world.app.id]?.temporaryFullAccuracy =
                            TemporaryFullAccuracy(purposeKey: "Navigation", process: asker) }
                        world.service.refreshAuthorization()
                    }
                    if seen.contains(where: { !$0.accuracyLimited }) { break }
                }
                return seen
            }
            return await drive(world, until: task) ?? []
        }
        let first = try #require(updates.first)
        #expect(first.accuracyLimited && (first.location?.horizontalAccuracy ?? 0) >= 1000)
        let granted = try #require(updates.last)
        #expect(!granted.accuracyLimited)
        #expect((granted.location?.horizontalAccuracy ?? .infinity) <= 5)
    }

    @Test func monitorEventsAreAccuracyLimitedAgainWhenTheGrantEnds() async throws {
        let asker = ProcessStamp(pid: 8181, startTime: 1)
        let world = try MonitorWorld(at: MonitorPlace.inside, authorization: nil, info: Self.info)
        try world.harness.setAuthorization(.authorizedWhenInUse, accuracy: .reducedAccuracy)
        world.harness.liveProcesses.withLock { _ = $0.insert(asker) }
        try world.harness.updateStore { $0.apps[world.harness.app.id]?.temporaryFullAccuracy =
            TemporaryFullAccuracy(purposeKey: "Navigation", process: asker) }
        let monitor = try await world.open("granted")
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(MonitorPlace.circle, identifier: "office")
        world.advance(by: 10)
        #expect(await recorder.wait { $0.contains { $0.state == .satisfied } })
        #expect(recorder.events.allSatisfy { !$0.accuracyLimited }, "watched with full accuracy while granted")

        world.harness.liveProcesses.withLock { _ = $0.remove(asker) }
        world.harness.service.refreshAuthorization()
        world.advance(by: 10)
        #expect(await recorder.wait { $0.contains { $0.accuracyLimited } }, "the asker exited")
        await recorder.stop()
    }
}
