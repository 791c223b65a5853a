import CoreLocation
import Foundation
import LocationBootstrap
import LocationCore
import LocationDaemonClient
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import LocationSources
import LocationWire
@testable import LocationDaemon
import TestSupport
import Testing

/// An app that requires explicit service sessions, served by a real daemon: live updates wait for a
/// `CLServiceSession`, say so, and stream while one is held.
@Suite(.timeLimit(.minutes(2)))
struct DaemonServiceSessionTests {
    @Test func liveUpdatesStreamThroughTheDaemonOnlyWhileASessionIsHeld() async throws {
        let fixture = try DaemonFixture(sources: [FixedSource(latitude: 52.52, longitude: 13.405, horizontalAccuracy: 4)])
        // Without an Info.plist beside the test executable the daemon names this process by its path.
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        try fixture.store.update { database in
            database.apps[executable] = AppRecord(status: .authorizedWhenInUse, displayName: "tests", executablePath: executable, updated: Date())
        }
        let system = LocationSystem(
            provider: DaemonServiceProvider(socketPath: fixture.socketPath),
            app: AppIdentity(id: executable, displayName: "tests", executablePath: executable),
            info: AppInfo(whenInUseUsageDescription: "Shows where you are.", requiresExplicitServiceSession: true),
            process: ProcessStamp.current())
        let seen = Locked<[CLLocationUpdate]>([])
        let iteration = LocationSystem.$override.withValue(system) {
            let updates = CLLocationUpdate.liveUpdates()
            return Task {
                do {
                    for try await update in updates { seen.withLock { $0.append(update) } }
                } catch {}
            }
        }
        defer { iteration.cancel() }
        #expect(await eventually(timeout: .seconds(20)) { seen.withLock { $0.contains { $0.serviceSessionRequired } } })
        try await Task.sleep(for: .milliseconds(500))
        #expect(seen.withLock { $0.allSatisfy { $0.location == nil } })

        let session = LocationSystem.$override.withValue(system) { CLServiceSession(authorization: .whenInUse) }
        #expect(await eventually(timeout: .seconds(20)) { seen.withLock { $0.contains { $0.location != nil } } })
        let location = try #require(seen.withLock { $0.last { $0.location != nil }?.location })
        #expect(abs(location.coordinate.latitude - 52.52) < 1e-9)

        session.invalidate()
        #expect(await eventually(timeout: .seconds(20)) { seen.withLock { $0.last?.serviceSessionRequired == true } })
    }

    /// What a session with a full-accuracy purpose sends, over the wire: the grant, then its end.
    @Test func endingTemporaryFullAccuracyReturnsTheProcessToReducedAccuracy() async throws {
        let fixture = try DaemonTemporaryFullAccuracyTests.mapsDaemon(policy: "allow")
        let (app, _, initial) = try await fixture.welcomedClient()
        #expect(initial == DaemonTemporaryFullAccuracyTests.reduced)
        app.send(.request(.requestTemporaryFullAccuracy(1, purposeKey: "Navigation")))
        #expect(await DaemonTemporaryFullAccuracyTests.outcome(app, 1) == .prompted)
        #expect(app.messages.contains(.event(.authorizationChanged(DaemonTemporaryFullAccuracyTests.full))))

        app.send(.request(.endTemporaryFullAccuracy))
        #expect(await app.first { $0 == .event(.authorizationChanged(DaemonTemporaryFullAccuracyTests.reduced)) } != nil)
        #expect(try fixture.store.read().apps["com.example.maps"]?.temporaryFullAccuracy == nil)
    }
}
