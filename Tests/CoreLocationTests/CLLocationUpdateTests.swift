import CoreLocation
import CoreLocationTesting
import Foundation
import LocationCore
import LocationEngine
import LocationPolicy
import LocationProtocol
import TestSupport
import Testing

/// `CLLocationUpdate.liveUpdates()` and its diagnostic flags.
@Suite struct CLLocationUpdateTests {
    /// Collects updates until `stop` says so, driving virtual time meanwhile.
    private func collect(
        _ world: LocationTestHarness, _ configuration: CLLocationUpdate.LiveConfiguration = .default,
        stop: @escaping @Sendable ([CLLocationUpdate]) -> Bool
    ) async -> [CLLocationUpdate] {
        await world.run {
            let task = Task {
                var seen: [CLLocationUpdate] = []
                for try await update in CLLocationUpdate.liveUpdates(configuration) {
                    seen.append(update)
                    if stop(seen) { break }
                }
                return seen
            }
            return await drive(world, until: task) ?? []
        }
    }

    private func authorize(_ world: LocationTestHarness, accuracy: CLAccuracyAuthorization = .fullAccuracy) throws {
        try world.setAuthorization(.authorizedWhenInUse, accuracy: accuracy)
    }

    @Test func deliversLocationsWhenAuthorized() async throws {
        let world = try LocationTestHarness(source: "sim:city-drive")
        try authorize(world)
        let updates = await collect(world) { $0.filter { $0.location != nil }.count >= 10 }
        let locations = updates.compactMap(\.location)
        #expect(locations.count == 10)
        #expect(updates.allSatisfy { !$0.authorizationDenied && !$0.accuracyLimited && !$0.insufficientlyInUse })
        #expect(world.prompter.requests.isEmpty, "already authorized: no prompt")
    }

    @Test func reportsARequestInProgressWhileNobodyAnswers() async throws {
        let world = try LocationTestHarness(source: "sim:walk", answer: nil)
        let updates = await collect(world) { $0.contains { $0.authorizationRequestInProgress } }
        #expect(updates.last?.authorizationRequestInProgress == true)
        #expect(updates.allSatisfy { $0.location == nil })
    }

    @Test func reportsDeniedGloballyWhenServicesAreOff() async throws {
        let world = try LocationTestHarness(source: "sim:walk")
        try authorize(world)
        try world.updateStore { $0.servicesEnabled = false }
        let updates = await collect(world) { $0.contains { $0.authorizationDenied } }
        let last = try #require(updates.last)
        #expect(last.authorizationDenied && last.authorizationDeniedGlobally)
        #expect(last.location == nil)
    }

    @Test func reportsADenialOnceAndNoLocations() async throws {
        let world = try LocationTestHarness(source: "sim:walk", answer: .dontAllow)
        let updates = await collect(world) { $0.count >= 20 }
        #expect(updates.filter(\.authorizationDenied).count == 1)
        #expect(updates.allSatisfy { $0.location == nil })
        #expect(world.prompter.requests.count == 1)
    }

    @Test func reportsRestricted() async throws {
        let world = try LocationTestHarness(source: "sim:walk")
        try world.setAuthorization(.restricted)
        let updates = await collect(world) { $0.contains { $0.authorizationRestricted } }
        #expect(updates.last?.authorizationRestricted == true)
    }

    @Test func flagsReducedAccuracyAsAccuracyLimited() async throws {
        let world = try LocationTestHarness(source: "sim:city-drive")
        try authorize(world, accuracy: .reducedAccuracy)
        let updates = await collect(world) { $0.contains { $0.location != nil } }
        let update = try #require(updates.last)
        #expect(update.accuracyLimited)
        #expect((update.location?.horizontalAccuracy ?? 0) >= 1_000)
    }

    @Test func reportsLocationUnavailable() async throws {
        let world = LocationTestHarness(sources: [NeverFixSource()])
        try authorize(world)
        let updates = await collect(world) { $0.contains { $0.locationUnavailable } }
        #expect(updates.last?.locationUnavailable == true)
    }

    @Test func reportsStationaryWhenTheDeviceStops() async throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405")
        try authorize(world)
        let updates = await collect(world) { $0.contains { $0.stationary } }
        let stationary = try #require(updates.last)
        #expect(stationary.stationary)
        let previous = try #require(updates.dropLast().last { $0.location != nil }?.location)
        #expect(stationary.location?.coordinate.latitude == previous.coordinate.latitude)
    }

    @Test func explicitServiceSessionRequirementIsReported() async throws {
        var info = LocationTestHarness.defaultInfo
        info.requiresExplicitServiceSession = true
        let world = try LocationTestHarness(source: "sim:walk", app: LocationTestHarness.defaultApp, info: info)
        let updates = await collect(world) { $0.contains { $0.serviceSessionRequired } }
        #expect(updates.last?.serviceSessionRequired == true)
        #expect(world.prompter.requests.isEmpty)
    }

    @Test func endingTheIterationReleasesTheSource() async throws {
        let world = try LocationTestHarness(source: "sim:walk")
        try authorize(world)
        _ = await collect(world) { $0.count >= 3 }
        // Not bounded in simulated seconds: the iteration's end reaches the engine only when the busy test
        // pool runs it, however many seconds the loop has run by then.
        _ = await eventually(timeout: .seconds(60)) {
            guard world.engine.status.subscriberCount > 0 else { return true }
            world.loop.advance(by: 1)
            return false
        }
        #expect(world.engine.status.subscriberCount == 0)
        #expect(world.engine.status.activeSource == nil)
    }
}
