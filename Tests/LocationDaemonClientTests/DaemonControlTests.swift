import Foundation
import LocationCore
import LocationProtocol
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemonClient

/// `locationctl`'s settings commands through a (fake) daemon.
@Suite struct DaemonControlTests {
    static let database = AuthorizationDatabase(servicesEnabled: false, apps: [
        "com.example.maps": AppRecord(
            status: .authorizedWhenInUse, accuracy: .reducedAccuracy, displayName: "Maps",
            executablePath: "/usr/bin/maps", updated: Date(timeIntervalSinceReferenceDate: 780_000_000)),
    ])

    @Test func aSettingsChangeReachesTheDaemonAndItsVerdictComesBack() async throws {
        let daemon = try FakeDaemon { message in
            guard case .settings(let change) = message else { return [] }
            if case .reset(let app) = change { return [.settingsResult(SettingsChangeError("no app \(app) in the store"))] }
            return [.settingsResult(nil)]
        }
        try daemon.start()
        let grant = SettingsChange.grant(app: "com.example.maps", always: true, approximate: false)
        try DaemonControl.apply(grant, socketPath: daemon.socketPath)
        #expect(daemon.messages(on: 1) == [.hello(version: WireProtocol.version), .settings(grant)])
        #expect(throws: SettingsChangeError("no app com.example.gone in the store")) {
            try DaemonControl.apply(.reset(app: "com.example.gone"), socketPath: daemon.socketPath)
        }
        #expect(await eventually { daemon.isClosed(1) && daemon.isClosed(2) }, "each command closes its connection")
    }

    @Test func listingAppsReturnsTheDaemonsDatabaseOrItsReason() async throws {
        let unreadable = Locked(false)
        let daemon = try FakeDaemon { message in
            guard message == .listApps else { return [] }
            // A daemon may push app events to any client: they are skipped.
            return unreadable.withLock { $0 }
                ? [.appsUnavailable(SettingsChangeError("authorization store is corrupt"))]
                : [.event(.authorizationChanged(.denied)), .apps(Self.database)]
        }
        try daemon.start()
        #expect(try DaemonControl.listApps(socketPath: daemon.socketPath) == Self.database)
        unreadable.withLock { $0 = true }
        #expect(throws: SettingsChangeError("authorization store is corrupt")) {
            try DaemonControl.listApps(socketPath: daemon.socketPath)
        }
    }

    @Test func noDaemonIsAClearErrorAtOnce() async throws {
        let daemon = try FakeDaemon()
        let started = Date()
        let error = try #require(throws: DaemonClientError.self) {
            try DaemonControl.apply(.services(enabled: false), socketPath: daemon.socketPath)
        }
        #expect(error.code == .unreachable)
        #expect(error.description == "locationd is not reachable at \(daemon.socketPath): No such file or directory")
        #expect(Date().timeIntervalSince(started) < 1)

        // A socket file left by a daemon that died.
        try daemon.start()
        daemon.stop()
        let stale = try #require(throws: DaemonClientError.self) { try DaemonControl.listApps(socketPath: daemon.socketPath) }
        #expect(stale.code == .unreachable)
        #expect(stale.description.hasSuffix("Connection refused"))
    }

    @Test func refusalsSilenceHangUpsAndGarbageAreClearErrors() async throws {
        let refusing = try FakeDaemon(greeting: .refuse("unsupported protocol version 1"))
        try refusing.start()
        let refused = try #require(throws: DaemonClientError.self) {
            try DaemonControl.apply(.services(enabled: true), socketPath: refusing.socketPath)
        }
        #expect(refused.code == .refused)
        #expect(refused.description.contains("unsupported protocol version 1"))

        let silent = try FakeDaemon(greeting: .silence)
        try silent.start()
        let timedOut = try #require(throws: DaemonClientError.self) {
            try DaemonControl.apply(.services(enabled: true), socketPath: silent.socketPath, timeout: 0.2)
        }
        #expect(timedOut.code == .timedOut)

        // Answers nothing to the request, closes instead.
        let hangingUp = try FakeDaemon { _ in [.refused("settings are not allowed here")] }
        try hangingUp.start()
        let hungUp = try #require(throws: DaemonClientError.self) {
            try DaemonControl.apply(.services(enabled: true), socketPath: hangingUp.socketPath)
        }
        #expect(hungUp.code == .refused)

        let confused = try FakeDaemon { _ in [.agentPromptWithdrawn(id: 1)] }
        try confused.start()
        let violation = try #require(throws: DaemonClientError.self) {
            try DaemonControl.listApps(socketPath: confused.socketPath)
        }
        #expect(violation.code == .protocolViolation)
    }

    /// An exchange that gives up before its connection completes closes the connection when it does —
    /// on the event loop, whose close fires the handler that attaches again: that must not deadlock the
    /// loop (it did once, under a loaded CI machine, hanging every later exchange).
    @Test func exchangesAbandonedBeforeTheirConnectionLeaveTheEventLoopsWorking() async throws {
        let silent = try FakeDaemon(greeting: .silence)
        try silent.start()
        for _ in 0..<40 {
            let error = try #require(throws: DaemonClientError.self) {
                try DaemonControl.apply(.services(enabled: true), socketPath: silent.socketPath, timeout: 0)
            }
            #expect(error.code == .timedOut)
        }
        let daemon = try FakeDaemon { message in message == .listApps ? [.apps(Self.database)] : [] }
        try daemon.start()
        for _ in 0..<4 {
            #expect(try DaemonControl.listApps(socketPath: daemon.socketPath) == Self.database)
        }
    }

    @Test func garbageInsteadOfAnAnswerIsAProtocolViolation() async throws {
        let daemon = try FakeDaemon()
        try daemon.start()
        let result = Locked<Result<AuthorizationDatabase, any Error>?>(nil)
        // The answer's timeout outlasts any wait of this task for a thread of the busy test pool: with
        // 60 s, a run on two cores that were busy besides saw the client give up and close before the
        // garbage was sent.
        let thread = Thread {
            result.withLock { $0 = Result { try DaemonControl.listApps(socketPath: daemon.socketPath, timeout: 600) } }
        }
        thread.start()
        // 30 s, not the default 5: under a full parallel run on two shared cores the thread was seen
        // to take longer than 5 s to connect and ask (the garbage then had no connection to go to).
        try #require(await eventually(timeout: .seconds(30)) { daemon.messages(on: 1).contains(.listApps) })
        try daemon.sendRaw(FakeGarbage.hostileLength.bytes)
        #expect(await eventually(timeout: .seconds(30)) { result.withLock { $0 } != nil })
        let failure = try #require(result.withLock { $0 }.flatMap { result -> DaemonClientError? in
            if case .failure(let error) = result { return error as? DaemonClientError }
            return nil
        })
        #expect(failure.code == .protocolViolation)
        #expect(failure.description.contains("exceeds the limit"))
    }
}
