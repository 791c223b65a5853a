import Foundation
import LocationAccess
import LocationCore
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import LocationSources
import LocationWire
import Logging
import TestSupport
import Testing
@testable import LocationDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Who the daemon decides a client is: the kernel's pid, `/proc/PID/exe`, the Info.plist beside it —
/// never anything the client says.
@Suite(.timeLimit(.minutes(2)))
struct DaemonIdentityTests {
    @Test func theWelcomeNamesTheExecutableTheKernelReportsNotWhatTheClientClaims() async throws {
        let fixture = try DaemonFixture(sources: [])
        let client = try fixture.client()
        // A hello carrying claims the protocol does not have: decoded, and ignored.
        client.sendJSONFrame(#"{"type":"hello","version":\#(WireProtocol.version),"bundleIdentifier":"com.apple.Maps","executablePath":"/usr/bin/maps"}"#)
        let welcome = await client.first { if case .welcome = $0 { return true } else { return false } }
        guard case let .welcome(identity, authorization, _)? = welcome?.message else {
            Issue.record("no welcome: \(client.messages)")
            return
        }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(identity.executablePath == executable)
        #expect(identity.id != "com.apple.Maps")
        let beside = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("Info.plist")
        if !FileManager.default.fileExists(atPath: beside.path) {
            #expect(identity.id == executable)
        }
        #expect(authorization == .notDetermined)
    }

    @Test func theInfoPlistBesideTheExecutableNamesTheApp() async throws {
        let fixture = try DaemonFixture(sources: [], fakeProc: true)
        let weather = try makeApp(in: fixture.directory, name: "weather", infoPlist: appPlist("com.example.weather", name: "Weather"))
        try fixture.fakeProc?.present(weather)
        let (_, identity, _) = try await fixture.welcomedClient()
        #expect(identity == AppIdentity(id: "com.example.weather", displayName: "Weather", executablePath: weather.path))
    }

    @Test func aClientWhoseProcessCannotBeReadIsRefused() async throws {
        // A fake /proc with no entry for this process: the daemon cannot tell who it is.
        let fixture = try DaemonFixture(sources: []) { configuration in
            configuration.procRoot = "/nonexistent-proc"
        }
        let client = try fixture.client()
        client.send(.hello(version: WireProtocol.version))
        let refused = await client.first { if case .refused = $0 { return true } else { return false } }
        guard case let .refused(reason)? = refused?.message else {
            Issue.record("not refused: \(client.messages)")
            return
        }
        #expect(reason.contains("cannot identify the client"))
        #expect(await eventually(timeout: .seconds(5)) { client.isClosedByDaemon })
    }

    // MARK: The binding rule

    static let bound = AppRecord(
        status: .authorizedAlways, displayName: "Weather", executablePath: "/opt/weather/weather", updated: Date())

    @Test func bindingDecisions() {
        #expect(IdentityBinding.decide(bundleIdentifier: nil, executablePath: "/x", record: Self.bound) == .accepted)
        #expect(IdentityBinding.decide(bundleIdentifier: "com.example.weather", executablePath: "/x", record: nil) == .accepted)
        #expect(IdentityBinding.decide(bundleIdentifier: "com.example.weather", executablePath: "/opt/weather/weather", record: Self.bound) == .accepted)
        #expect(IdentityBinding.decide(bundleIdentifier: "com.example.weather", executablePath: "/tmp/evil/weather", record: Self.bound)
            == .rejected(boundTo: "/opt/weather/weather"))
        var unbound = Self.bound
        unbound.executablePath = ""
        #expect(IdentityBinding.decide(bundleIdentifier: "com.example.weather", executablePath: "/tmp/first/weather", record: unbound) == .bind)
    }

    /// The rule applied to what a fake `/proc` says: a copied Info.plist does not carry the app's
    /// authorization to another executable.
    @Test func aCopiedInfoPlistDoesNotStealTheAppsAuthorization() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let proc = try FakeProc(root: directory.appendingPathComponent("proc"))
        let real = try makeApp(in: directory, name: "weather", infoPlist: appPlist("com.example.weather", name: "Weather"))
        let impostor = try makeApp(in: directory, name: "impostor", infoPlist: appPlist("com.example.weather", name: "Weather"))
        let store = MemoryAuthorizationStore(AuthorizationDatabase(apps: [
            "com.example.weather": AppRecord(status: .authorizedAlways, displayName: "Weather", executablePath: real.path, updated: Date()),
        ]))
        let credentials = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())

        try proc.present(impostor)
        let process = try PeerProcess.inspect(credentials, procRoot: proc.root.path)
        #expect(process.executablePath == impostor.path)
        let judged = IdentityBinding.resolve(
            info: process.loadAppInfo(logger: .init(label: "test")), executablePath: process.executablePath, store: store,
            logger: .init(label: "test"))
        #expect(judged.identity == AppIdentity(id: impostor.path, displayName: "impostor", executablePath: impostor.path))
        #expect(judged.info.bundleIdentifier == nil)
        #expect(judged.info.whenInUseUsageDescription != nil, "it may still ask under its own name")

        try proc.present(real)
        let genuine = try PeerProcess.inspect(credentials, procRoot: proc.root.path)
        let accepted = IdentityBinding.resolve(
            info: genuine.loadAppInfo(logger: .init(label: "test")), executablePath: genuine.executablePath, store: store,
            logger: .init(label: "test"))
        #expect(accepted.identity.id == "com.example.weather")
        #expect(try store.read().apps["com.example.weather"]?.executablePath == real.path)
    }

    @Test func aGrantMadeBeforeTheAppRanIsBoundToTheFirstExecutableThatPresentsIt() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let first = try makeApp(in: directory, name: "first", infoPlist: appPlist("com.example.weather"))
        let second = try makeApp(in: directory, name: "second", infoPlist: appPlist("com.example.weather"))
        let store = MemoryAuthorizationStore()
        try store.update { try SettingsChange.grant(app: "com.example.weather", always: false, approximate: false).apply(to: &$0, now: Date()) }
        #expect(try store.read().apps["com.example.weather"]?.executablePath == "")
        let info = try AppInfo.load(contentsOf: first.deletingLastPathComponent().appendingPathComponent("Info.plist"))

        let bound = IdentityBinding.resolve(info: info, executablePath: first.path, store: store, logger: .init(label: "test"))
        #expect(bound.identity.id == "com.example.weather")
        #expect(try store.read().apps["com.example.weather"]?.executablePath == first.path)
        #expect(try store.read().apps["com.example.weather"]?.displayName == "first", "named after the app once bound")

        let later = IdentityBinding.resolve(info: info, executablePath: second.path, store: store, logger: .init(label: "test"))
        #expect(later.identity.id == second.path)
    }

    @Test func anUnreadableStoreCannotVouchForABundleIdentifier() throws {
        let store = MemoryAuthorizationStore()
        store.simulateFailure(AuthorizationStoreError(code: .corrupt, path: "/x", reason: "garbage"))
        let info = AppInfo(bundleIdentifier: "com.example.weather", whenInUseUsageDescription: "x")
        let judged = IdentityBinding.resolve(info: info, executablePath: "/opt/weather/weather", store: store, logger: .init(label: "test"))
        #expect(judged.identity.id == "/opt/weather/weather")
    }

    /// End to end: the impostor connects with the real app's Info.plist beside it and is welcomed under
    /// its own path, not authorized; the real app is welcomed as itself, authorized.
    @Test func theDaemonServesAnImpostorUnderItsOwnPath() async throws {
        let fixture = try DaemonFixture(sources: [], fakeProc: true)
        let real = try makeApp(in: fixture.directory, name: "weather", infoPlist: appPlist("com.example.weather"))
        let impostor = try makeApp(in: fixture.directory, name: "copy", infoPlist: appPlist("com.example.weather"))
        try fixture.store.update { database in
            database.apps["com.example.weather"] = AppRecord(
                status: .authorizedWhenInUse, displayName: "Weather", executablePath: real.path, updated: Date())
        }
        try fixture.fakeProc?.present(impostor)
        let (_, strangerIdentity, strangerAuthorization) = try await fixture.welcomedClient()
        #expect(strangerIdentity.id == impostor.path)
        #expect(strangerAuthorization.status == .notDetermined)

        try fixture.fakeProc?.present(real)
        let (_, identity, authorization) = try await fixture.welcomedClient()
        #expect(identity.id == "com.example.weather")
        #expect(authorization.status == .authorizedWhenInUse)
    }
}
