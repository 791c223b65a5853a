import Foundation
import LocationAccess
import LocationCore
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemon

/// A store the daemon cannot read denies everyone and refuses every change, saying why.
@Suite(.timeLimit(.minutes(2)))
struct DaemonStoreFailureTests {
    @Test func aCorruptStoreDeniesAndRefusesSettingsWithTheReason() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let state = temporary.url
        let store = SQLiteAuthorizationStore(directory: state)
        try Data("{ this is not a database".utf8).write(to: store.fileURL)
        let fixture = try DaemonFixture(sources: [], store: store)

        let (client, identity, authorization) = try await fixture.welcomedClient()
        #expect(authorization.status == .denied)

        client.send(.settings(.grant(app: identity.id, always: false, approximate: false)))
        let result = await client.first { if case .settingsResult = $0 { return true } else { return false } }
        guard case let .settingsResult(error?)? = result?.message else {
            Issue.record("the change was not refused: \(String(describing: result?.message))")
            return
        }
        #expect(error.message.contains("corrupt"))
        #expect(error.message.contains(store.fileURL.path))

        client.send(.listApps)
        let listed = await client.first { if case .appsUnavailable = $0 { return true } else { return false } }
        guard case let .appsUnavailable(reason)? = listed?.message else {
            Issue.record("apps listed from a corrupt store: \(String(describing: listed?.message))")
            return
        }
        #expect(reason.message.contains("corrupt"))
        #expect(try String(contentsOf: store.fileURL, encoding: .utf8) == "{ this is not a database", "left untouched")
    }

    @Test func aStoreThatBreaksWhileAppsRunDeniesThemAtOnce() async throws {
        let store = MemoryAuthorizationStore()
        let fixture = try DaemonFixture(sources: [], store: store)
        let (client, identity, _) = try await fixture.welcomedClient()
        try store.update { database in
            database.apps[identity.id] = AppRecord(
                status: .authorizedAlways, displayName: "tests", executablePath: identity.executablePath, updated: Date())
        }
        let always = EffectiveAuthorization(status: .authorizedAlways, accuracy: .fullAccuracy, servicesEnabled: true)
        #expect(await client.first { $0 == .event(.authorizationChanged(always)) } != nil, "picked up by watching the store")

        store.simulateFailure(AuthorizationStoreError(code: .unreadable, path: "/state/authorization", reason: "I/O error"))
        let denied = EffectiveAuthorization(status: .denied, accuracy: .reducedAccuracy, servicesEnabled: true)
        #expect(await client.first { $0 == .event(.authorizationChanged(denied)) } != nil)
        client.send(.settings(.revoke(app: identity.id)))
        #expect(await client.first { if case .settingsResult(.some) = $0 { return true } else { return false } } != nil)
    }
}
