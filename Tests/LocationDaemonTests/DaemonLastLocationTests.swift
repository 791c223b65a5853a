import Foundation
import LocationAccess
import LocationCore
import LocationEngine
import LocationPolicy
import LocationProtocol
import LocationSources
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemon

/// Remembers what was saved, and can fail on demand.
final class MemoryLastLocation: LastLocationStorage, @unchecked Sendable {
    private let state: Locked<(fix: Fix?, saves: Int, failing: Bool)>

    init(_ fix: Fix? = nil) { state = Locked((fix, 0, false)) }

    var fix: Fix? { state.withLock { $0.fix } }
    var saves: Int { state.withLock { $0.saves } }
    func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }

    func save(_ fix: Fix) throws {
        try state.withLock { state in
            if state.failing { throw WireClientError("disk full") }
            state.fix = fix
            state.saves += 1
        }
    }

    func load() throws -> Fix? {
        try state.withLock { state in
            if state.failing { throw WireClientError("unreadable") }
            return state.fix
        }
    }
}

/// The last known location survives a restart (sealed by the storage), and is saved while running.
@Suite(.timeLimit(.minutes(2)))
struct DaemonLastLocationTests {
    static let saved = Fix(latitude: 45.07, longitude: 7.69, horizontalAccuracy: 8, timestamp: Date(timeIntervalSinceNow: -600))

    @Test func theSavedFixIsTheFirstAnAppReceivesAndTheNewestIsSavedAtStop() async throws {
        let storage = MemoryLastLocation(Self.saved)
        let fixture = try DaemonFixture(sources: [FixedSource(latitude: 52.52, longitude: 13.405)]) { configuration in
            configuration.lastLocationStore = storage
            // No periodic save during the test (a loaded run once took longer than the default
            // interval to deliver two fixes): only the save at stop is counted.
            configuration.lastLocationSaveInterval = 3600
        }
        #expect(await eventually(timeout: .seconds(5)) { fixture.daemon.engine.status.lastFix == Self.saved })
        let (client, identity, _) = try await fixture.welcomedClient()
        try fixture.store.update { database in
            database.apps[identity.id] = AppRecord(
                status: .authorizedWhenInUse, displayName: "tests", executablePath: identity.executablePath, updated: Date())
        }
        client.send(.request(.startUpdates(1, UpdateRequest(distanceFilter: -1, pausesAutomatically: false))))
        #expect(await eventually(timeout: .seconds(10)) { client.fixes.count >= 2 })
        #expect(client.fixes.first == Self.saved, "the cached fix comes first")
        #expect(client.fixes.dropFirst().first?.latitude == 52.52)
        #expect(storage.saves == 0, "an unchanged restored fix is not written again")

        fixture.daemon.stop()
        #expect(storage.fix?.latitude == 52.52)
        #expect(storage.saves == 1)
    }

    @Test func theNewestFixIsSavedPeriodically() async throws {
        let storage = MemoryLastLocation()
        let fixture = try DaemonFixture(sources: [SimulatedRouteSource(route: .walk, speed: 20)]) { configuration in
            configuration.lastLocationStore = storage
            configuration.lastLocationSaveInterval = 0.1
        }
        let (client, identity, _) = try await fixture.welcomedClient()
        try fixture.store.update { database in
            database.apps[identity.id] = AppRecord(
                status: .authorizedWhenInUse, displayName: "tests", executablePath: identity.executablePath, updated: Date())
        }
        client.send(.request(.startUpdates(1, UpdateRequest(distanceFilter: -1, pausesAutomatically: false))))
        #expect(await eventually(timeout: .seconds(10)) { storage.saves >= 3 })
        #expect(storage.fix != nil)
    }

    @Test func anUnreadableSavedFixIsNotFatal() async throws {
        let storage = MemoryLastLocation(Self.saved)
        storage.fail(true)
        let fixture = try DaemonFixture(sources: []) { configuration in
            configuration.lastLocationStore = storage
        }
        _ = try await fixture.welcomedClient()
        #expect(fixture.daemon.engine.status.lastFix == nil)
    }
}
