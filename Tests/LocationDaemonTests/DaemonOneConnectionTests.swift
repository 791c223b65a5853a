import Foundation
import LocationCore
import LocationDaemonClient
import LocationPolicy
import LocationProtocol
import LocationSources
@testable import LocationDaemon
import TestSupport
import Testing

/// Through a real daemon: every connection a process opens with one provider (every manager, every
/// `liveUpdates()` iteration) is a set of streams on one socket, and each gets its own fixes.
@Suite(.timeLimit(.minutes(2)))
struct DaemonOneConnectionTests {
    /// What one connection received.
    final class Received: Sendable {
        private let events = Locked<[ServiceEvent]>([])

        var handler: @Sendable (ServiceEvent) -> Void { { event in self.events.withLock { $0.append(event) } } }

        func fixes(on stream: StreamID) -> Int {
            events.withLock { events in
                events.reduce(0) { count, event in
                    guard case let .stream(id, .locations(fixes)) = event, id == stream else { return count }
                    return count + fixes.count
                }
            }
        }

        var authorizations: [EffectiveAuthorization] {
            events.withLock { $0.compactMap { if case let .authorizationChanged(value) = $0 { value } else { nil } } }
        }
    }

    @Test func managersOfAProcessShareOneSocketAndEachGetsItsFixes() async throws {
        let fixture = try DaemonFixture(sources: [FixedSource(latitude: 52.52, longitude: 13.405, horizontalAccuracy: 4)])
        // Without an Info.plist beside the test executable the daemon names this process by its path.
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        try fixture.store.update { database in
            database.apps[executable] = AppRecord(
                status: .authorizedWhenInUse, displayName: "tests", executablePath: executable, updated: Date())
        }
        let provider = DaemonServiceProvider(socketPath: fixture.socketPath)
        let app = AppIdentity(id: "ignored", displayName: "ignored", executablePath: "/ignored")
        let process = ProcessStamp(pid: 1, startTime: 1)
        let first = Received(), second = Received(), third = Received()
        let a = provider.connect(app: app, info: AppInfo(), process: process, events: first.handler)
        let b = provider.connect(app: app, info: AppInfo(), process: process, events: second.handler)
        defer { a.close(); b.close() }
        let request = UpdateRequest(mode: .continuous, desiredAccuracy: 10)
        a.send(.startUpdates(1, request))
        b.send(.startUpdates(1, request))
        b.send(.startUpdates(2, request))
        #expect(await eventually { first.fixes(on: 1) >= 1 && second.fixes(on: 1) >= 1 && second.fixes(on: 2) >= 1 })
        #expect(fixture.daemon.registryOpenChannelCount == 1, "one socket for the whole process")

        // A connection opened once the link is welcomed knows the authorization at once.
        let c = provider.connect(app: app, info: AppInfo(), process: process, events: third.handler)
        defer { c.close() }
        #expect(c.initialAuthorization?.status == .authorizedWhenInUse)
        c.send(.startUpdates(1, request))
        #expect(await eventually { third.fixes(on: 1) >= 1 })
        #expect(fixture.daemon.registryOpenChannelCount == 1)
        #expect(first.authorizations.map(\.status) == [.authorizedWhenInUse], "the first event was the initial authorization")
        #expect(third.authorizations.isEmpty)
    }
}
