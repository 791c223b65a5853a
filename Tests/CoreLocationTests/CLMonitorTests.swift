import CoreLocation
import CoreLocationTesting
import Foundation
import LocationAccess
import LocationBootstrap
import LocationProtocol
import TestSupport
import Testing

/// `CLMonitor` against the in-process service in a virtual world: conditions, their events, and
/// the flags that say why a condition is not watched.
@Suite struct CLMonitorTests {
    /// Lets a recorder's task take what was delivered, for checks that nothing more arrived.
    private func quiet() async throws { try await Task.sleep(for: .milliseconds(100)) }

    @Test func reportsTheFirstStateThenEnteringAndLeavingOnce() async throws {
        let world = try MonitorWorld(at: MonitorPlace.outside)
        let monitor = try await world.open("trips")
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(MonitorPlace.circle, identifier: "office")
        #expect(await monitor.record(for: "office")?.lastEvent.state == .unknown)
        world.advance(by: 10)
        #expect(await recorder.wait { $0.count == 1 })
        world.move(to: MonitorPlace.inside)
        world.advance(by: 20)
        #expect(await recorder.wait { $0.count == 2 })
        world.move(to: MonitorPlace.outside)
        world.advance(by: 20)
        #expect(await recorder.wait { $0.count == 3 })
        world.advance(by: 60)
        try await quiet()
        let events = recorder.events
        #expect(events.map(\.state) == [.unsatisfied, .satisfied, .unsatisfied])
        #expect(events.allSatisfy { $0.identifier == "office" && $0.refinement == nil })
        #expect(events.allSatisfy { !$0.authorizationDenied && !$0.accuracyLimited && !$0.conditionUnsupported })
        #expect(events.map(\.date) == events.map(\.date).sorted())
        #expect(await monitor.record(for: "office")?.lastEvent.state == .unsatisfied)
        await recorder.stop()
    }

    @Test func anAssumedStateThatHoldsIsNoEvent() async throws {
        let world = try MonitorWorld(at: MonitorPlace.outside)
        let monitor = try await world.open("trips")
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(MonitorPlace.circle, identifier: "office", assuming: .unsatisfied)
        #expect(await monitor.record(for: "office")?.lastEvent.state == .unsatisfied)
        world.advance(by: 30)
        try await quiet()
        #expect(recorder.events.isEmpty, "outside, as assumed")
        world.move(to: MonitorPlace.inside)
        world.advance(by: 20)
        #expect(await recorder.wait { $0.count == 1 })
        #expect(recorder.events.map(\.state) == [.satisfied])
        await recorder.stop()
    }

    @Test func recordsIdentifiersAndRemoval() async throws {
        let world = try MonitorWorld()
        let monitor = try await world.open("places")
        #expect(await monitor.identifiers.isEmpty)
        #expect(await monitor.record(for: "office") == nil)
        let home = CLMonitor.CircularGeographicCondition(
            center: CLLocationCoordinate2D(latitude: 48.137, longitude: 11.575), radius: 150)
        await monitor.add(MonitorPlace.circle, identifier: "office")
        await monitor.add(home, identifier: "home")
        #expect(await monitor.identifiers == ["office", "home"])
        let record = try #require(await monitor.record(for: "home"))
        let condition = try #require(record.condition as? CLMonitor.CircularGeographicCondition)
        #expect(condition.center.latitude == 48.137 && condition.center.longitude == 11.575 && condition.radius == 150)
        #expect(record.lastEvent.identifier == "home" && record.lastEvent.state == .unknown)

        world.advance(by: 5)
        await monitor.remove("office")
        await monitor.remove("nothing")
        #expect(await monitor.identifiers == ["home"])
        #expect(await monitor.record(for: "office") == nil)
        world.advance(by: 5)
        let again = try await world.open("places")
        #expect(await again.identifiers == ["home"], "the service forgot it too")
    }

    @Test func aConditionRemovedRightAfterAddingStaysRemoved() async throws {
        let world = try MonitorWorld(at: MonitorPlace.inside)
        let monitor = try await world.open("quick")
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(MonitorPlace.circle, identifier: "office")
        await monitor.add(WiFiNetworkCondition(ssid: "lobby"), identifier: "lobby")
        await monitor.add(MonitorPlace.circle, identifier: "lobby")
        await monitor.remove("office")
        await monitor.add(WiFiNetworkCondition(ssid: "lobby"), identifier: "lobby")
        world.advance(by: 10)
        try await quiet()
        #expect(await monitor.identifiers == ["lobby"])
        #expect(await monitor.record(for: "lobby")?.condition is WiFiNetworkCondition)
        #expect(recorder.events.map(\.identifier) == ["lobby", "lobby"], "only the two unsupported conditions")
        let again = try await world.open("quick")
        #expect(await again.identifiers.isEmpty)
        await recorder.stop()
    }

    @Test func aSecondMonitorWithTheSameNameSharesConditionsAndEvents() async throws {
        let world = try MonitorWorld(at: MonitorPlace.inside)
        let first = try await world.open("shared")
        let firstEvents = MonitorEventRecorder(first.events)
        await first.add(MonitorPlace.circle, identifier: "office")
        world.advance(by: 10)
        #expect(await firstEvents.wait { $0.map(\.state) == [.satisfied] })

        let second = try await world.open("shared")
        let other = try await world.open("other")
        #expect(await second.identifiers == ["office"])
        #expect(await second.record(for: "office")?.lastEvent.state == .satisfied)
        #expect(await second.record(for: "office")?.condition is CLMonitor.CircularGeographicCondition)
        #expect(await other.identifiers.isEmpty, "another name, other conditions")

        let secondEvents = MonitorEventRecorder(second.events)
        world.move(to: MonitorPlace.outside)
        world.advance(by: 20)
        #expect(await firstEvents.wait { $0.map(\.state) == [.satisfied, .unsatisfied] })
        #expect(await secondEvents.wait { $0.map(\.state) == [.unsatisfied] })
        await firstEvents.stop()
        await secondEvents.stop()
    }

    @Test func aConditionRemovedByAnotherMonitorOfTheNameIsGoneFromBoth() async throws {
        let world = try MonitorWorld(at: MonitorPlace.inside)
        let first = try await world.open("shared")
        await first.add(MonitorPlace.circle, identifier: "office")
        world.advance(by: 2)
        let second = try await world.open("shared")
        #expect(await second.identifiers == ["office"])
        await second.remove("office")
        world.advance(by: 2)
        var gone = false
        for _ in 0..<100 where !gone {
            gone = await first.identifiers.isEmpty
            if !gone { try await quiet() }
        }
        #expect(gone, "the first monitor forgets the condition the second removed")
        #expect(await first.record(for: "office") == nil)
    }

    @Test func theTwentyFirstConditionIsOverTheLimit() async throws {
        let world = try MonitorWorld()
        let monitor = try await world.open("many")
        let recorder = MonitorEventRecorder(monitor.events)
        for index in 0..<21 {
            let center = CLLocationCoordinate2D(latitude: 40 + Double(index) * 0.01, longitude: 10)
            await monitor.add(CLMonitor.CircularGeographicCondition(center: center, radius: 100), identifier: "fence-\(index)")
        }
        world.advance(by: 5)
        #expect(await recorder.wait { !$0.filter { $0.identifier == "fence-20" }.isEmpty })
        let over = try #require(recorder.events(for: "fence-20").first)
        #expect(over.conditionLimitExceeded)
        #expect(over.state == .unmonitored)
        #expect(await monitor.record(for: "fence-20")?.lastEvent.conditionLimitExceeded == true)
        #expect(await monitor.record(for: "fence-19")?.lastEvent.conditionLimitExceeded == false)
        #expect(await monitor.identifiers.count == 21)
        #expect(!recorder.events.contains { $0.identifier != "fence-20" && $0.conditionLimitExceeded })
        await recorder.stop()
    }

    @Test func beaconConditionsAreKeptButUnsupported() async throws {
        let world = try MonitorWorld()
        let monitor = try await world.open("beacons")
        let recorder = MonitorEventRecorder(monitor.events)
        let uuid = UUID()
        await monitor.add(CLMonitor.BeaconIdentityCondition(uuid: uuid, major: 7), identifier: "shop")
        world.advance(by: 2)
        #expect(await recorder.wait { $0.contains { $0.identifier == "shop" } })
        let event = try #require(recorder.events.first)
        #expect(event.conditionUnsupported && event.state == .unmonitored)

        let again = try await world.open("beacons")
        let record = try #require(await again.record(for: "shop"))
        let beacon = try #require(record.condition as? CLMonitor.BeaconIdentityCondition)
        #expect(beacon.uuid == uuid && beacon.major == 7 && beacon.minor == nil)
        #expect(record.lastEvent.conditionUnsupported && record.lastEvent.state == .unmonitored)
        await recorder.stop()
    }

    @Test func aConditionTypeOfTheAppsOwnIsUnsupportedAndNeverSent() async throws {
        let world = try MonitorWorld()
        let monitor = try await world.open("custom")
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(WiFiNetworkCondition(ssid: "office"), identifier: "wifi")
        #expect(await recorder.wait { $0.count == 1 })
        let event = try #require(recorder.events.first)
        #expect(event.identifier == "wifi" && event.conditionUnsupported && event.state == .unmonitored)
        let record = try #require(await monitor.record(for: "wifi"))
        #expect(record.condition as? WiFiNetworkCondition == WiFiNetworkCondition(ssid: "office"))
        #expect(await monitor.identifiers == ["wifi"])
        world.advance(by: 2)
        let again = try await world.open("custom")
        #expect(await again.identifiers.isEmpty, "the service never saw it")
        await recorder.stop()
    }

    @Test func conditionsThatAreNoPlaceOrTooLargeAreUnsupported() async throws {
        let world = try MonitorWorld()
        let monitor = try await world.open("invalid")
        let recorder = MonitorEventRecorder(monitor.events)
        let nowhere = CLMonitor.CircularGeographicCondition(center: CLLocationCoordinate2D(latitude: 200, longitude: 0), radius: 100)
        let huge = CLMonitor.CircularGeographicCondition(center: MonitorPlace.center, radius: 1_000_000)
        // The service keeps no identifier longer than this many bytes.
        let overlong = String(repeating: "x", count: 2_000)
        await monitor.add(MonitorPlace.circle, identifier: "nowhere")
        await monitor.add(nowhere, identifier: "nowhere")
        await monitor.add(huge, identifier: "huge")
        await monitor.add(MonitorPlace.circle, identifier: overlong)
        world.advance(by: 5)
        #expect(await recorder.wait { Set($0.map(\.identifier)) == ["nowhere", "huge", overlong] })
        try await quiet()
        #expect(recorder.events.count == 3)
        #expect(recorder.events.allSatisfy { $0.conditionUnsupported && $0.state == .unmonitored })
        #expect(await monitor.identifiers == ["nowhere", "huge", overlong])
        #expect(await monitor.record(for: "nowhere")?.lastEvent.state == .unmonitored)
        #expect(await monitor.record(for: overlong)?.lastEvent.state == .unmonitored)

        // Only the too large one is the service's (the first "nowhere" was replaced); adding a
        // place under a refused one's name works as usual.
        let again = try await world.open("invalid")
        #expect(await again.identifiers == ["huge"])
        await monitor.remove("nowhere")
        await monitor.add(MonitorPlace.circle, identifier: "nowhere")
        world.advance(by: 5)
        #expect(await recorder.wait { $0.count == 4 })
        #expect(recorder.events.last?.identifier == "nowhere" && recorder.events.last?.state == .unsatisfied)
        await recorder.stop()
    }

    @Test func aDeniedAppIsToldOnEveryCondition() async throws {
        let world = try MonitorWorld(authorization: .denied)
        let monitor = try await world.open("denied")
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(MonitorPlace.circle, identifier: "office")
        world.advance(by: 10)
        #expect(await recorder.wait { !$0.isEmpty })
        let event = try #require(recorder.events.first)
        #expect(event.authorizationDenied && !event.authorizationDeniedGlobally && !event.authorizationRestricted)
        #expect(event.state == .unknown, "never watched")
        #expect(await monitor.record(for: "office")?.lastEvent.authorizationDenied == true)
        #expect(world.harness.promptCount == 0, "denied: iterating asks nothing")
        await recorder.stop()
    }

    @Test func locationServicesOffIsDeniedGlobally() async throws {
        let world = try MonitorWorld(at: MonitorPlace.inside)
        let monitor = try await world.open("off")
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(MonitorPlace.circle, identifier: "office")
        world.advance(by: 10)
        #expect(await recorder.wait { $0.map(\.state) == [.satisfied] })
        try world.harness.setLocationServicesEnabled(false)
        world.advance(by: 2)
        #expect(await recorder.wait { $0.count == 2 })
        let event = try #require(recorder.events.last)
        #expect(event.authorizationDenied && event.authorizationDeniedGlobally)
        #expect(event.state == .satisfied, "the last state known")
        await recorder.stop()
    }

    @Test func aRestrictedAppIsRestrictedNotDenied() async throws {
        let world = try MonitorWorld(authorization: .restricted)
        let monitor = try await world.open("restricted")
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(MonitorPlace.circle, identifier: "office")
        world.advance(by: 5)
        #expect(await recorder.wait { !$0.isEmpty })
        let event = try #require(recorder.events.first)
        #expect(event.authorizationRestricted && !event.authorizationDenied)
        await recorder.stop()
    }

    @Test func aConditionTheServiceCannotStoreSaysSo() async throws {
        let storage = MemoryFenceStorage()
        let world = try MonitorWorld(fenceStorage: storage)
        let monitor = try await world.open("unsaved")
        let recorder = MonitorEventRecorder(monitor.events)
        storage.failSaves(true)
        await monitor.add(MonitorPlace.circle, identifier: "office")
        world.advance(by: 2)
        #expect(await recorder.wait { $0.contains { $0.persistenceUnavailable } })
        let event = try #require(recorder.events.first { $0.persistenceUnavailable })
        #expect(event.identifier == "office" && event.state != .unmonitored, "still watched, only not kept")
        await recorder.stop()
    }

    @Test func reducedAccuracyIsAccuracyLimited() async throws {
        let world = try MonitorWorld(authorization: nil)
        try world.harness.setAuthorization(.authorizedWhenInUse, accuracy: .reducedAccuracy)
        let monitor = try await world.open("coarse")
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(MonitorPlace.circle, identifier: "office")
        world.advance(by: 10)
        #expect(await recorder.wait { !$0.isEmpty })
        #expect(recorder.events.first?.accuracyLimited == true)
        await recorder.stop()
    }

    @Test func iteratingAsksForWhenInUseAndThenWatches() async throws {
        let world = try MonitorWorld(at: MonitorPlace.inside, authorization: nil, answer: .allowWhileUsing(precise: true))
        let monitor = try await world.open("implicit")
        await monitor.add(MonitorPlace.circle, identifier: "office")
        world.advance(by: 10)
        #expect(world.harness.promptCount == 0, "nothing asks before the events are iterated")
        let recorder = MonitorEventRecorder(monitor.events)
        #expect(await eventually {
            world.advance(by: 1)
            return recorder.events.last?.state == .satisfied
        })
        // While the prompt was up, the condition said so.
        #expect(recorder.events.map(\.state) == [.unknown, .satisfied])
        #expect(recorder.events.map(\.authorizationRequestInProgress) == [true, false])
        #expect(world.harness.promptCount == 1)
        await recorder.stop()
    }

    @Test func aRequestInProgressIsReportedOnTheConditions() async throws {
        let world = try MonitorWorld(authorization: nil, answer: nil)
        let monitor = try await world.open("waiting")
        await monitor.add(MonitorPlace.circle, identifier: "office")
        let recorder = MonitorEventRecorder(monitor.events)
        #expect(await eventually {
            world.advance(by: 1)
            return recorder.events.contains { $0.authorizationRequestInProgress }
        })
        let event = try #require(recorder.events.first { $0.authorizationRequestInProgress })
        #expect(event.identifier == "office" && event.state == .unknown)
        await recorder.stop()
    }

    @Test func anExplicitSessionRequirementIsFlaggedAndNothingIsAsked() async throws {
        var info = LocationTestHarness.defaultInfo
        info.requiresExplicitServiceSession = true
        let world = try MonitorWorld(authorization: nil, info: info)
        let monitor = try await world.open("explicit")
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(CLMonitor.BeaconIdentityCondition(uuid: UUID()), identifier: "shop")
        world.advance(by: 10)
        #expect(await recorder.wait { !$0.isEmpty })
        #expect(recorder.events.first?.serviceSessionRequired == true)
        #expect(world.harness.promptCount == 0)
        await recorder.stop()
    }

    @Test func eachEventGoesToOneIterationAndLaterOnesContinue() async throws {
        let world = try MonitorWorld(at: MonitorPlace.outside)
        let monitor = try await world.open("tasks")
        let first = MonitorEventRecorder(monitor.events)
        let second = MonitorEventRecorder(monitor.events)
        await monitor.add(MonitorPlace.circle, identifier: "office")
        world.advance(by: 10)
        world.move(to: MonitorPlace.inside)
        world.advance(by: 20)
        world.move(to: MonitorPlace.outside)
        world.advance(by: 20)
        #expect(await eventually { first.events.count + second.events.count == 3 })
        try await quiet()
        let states = (first.events + second.events).sorted { $0.date < $1.date }.map(\.state)
        #expect(states == [.unsatisfied, .satisfied, .unsatisfied], "each once")
        await first.stop()
        await second.stop()

        let third = MonitorEventRecorder(monitor.events)
        world.move(to: MonitorPlace.inside)
        world.advance(by: 20)
        #expect(await third.wait { $0.map(\.state) == [.satisfied] })
        await third.stop()
    }

    @Test func aMonitorOpensEmptyWhenTheServiceNeverAnswers() async throws {
        let system = LocationSystem(
            provider: SilentProvider(), app: LocationTestHarness.defaultApp, info: LocationTestHarness.defaultInfo,
            process: ProcessStamp(pid: 1, startTime: 1))
        let start = ContinuousClock.now
        let monitor = await LocationSystem.$override.withValue(system) { await CLMonitor("silent") }
        let waited = ContinuousClock.now - start
        // Bounded, not exact: in a full parallel run other tests may hold the cooperative threads.
        #expect(waited >= .seconds(4) && waited < .seconds(120))
        #expect(await monitor.identifiers.isEmpty)
        await monitor.add(MonitorPlace.circle, identifier: "office")
        #expect(await monitor.identifiers == ["office"])
    }
}

/// A service that accepts connections and never says anything (as a hung `locationd` would).
private final class SilentProvider: LocationServiceProvider {
    private final class Connection: ClientConnection {
        var initialAuthorization: EffectiveAuthorization? { nil }
        func send(_ request: ClientRequest) {}
        func close() {}
    }

    func connect(
        app: AppIdentity, info: AppInfo, process: ProcessStamp, events: @escaping @Sendable (ServiceEvent) -> Void
    ) -> any ClientConnection { Connection() }

    func currentAuthorization(app: AppIdentity, process: ProcessStamp) -> EffectiveAuthorization { .notDetermined }

    // A hung daemon's last welcome said it has every kind of source.
    var hasLocationSources: Bool { true }
    var hasHeadingSources: Bool { true }
    var hasBeaconSources: Bool { true }
}
