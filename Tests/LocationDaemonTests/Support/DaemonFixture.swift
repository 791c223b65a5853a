import Foundation
import LocationCore
import LocationPolicy
import LocationProtocol
import LocationSources
@testable import LocationDaemon
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A daemon running in this process on a temporary socket, with its own state directory, no prompt
/// policy, and (optionally) a fake `/proc` that decides who this process appears to be.
final class DaemonFixture: @unchecked Sendable {
    private let temporary: TemporaryDirectory
    var directory: URL { temporary.url }
    let socketPath: String
    let store: any AuthorizationStore
    let fakeProc: FakeProc?
    let daemon: LocationDaemon

    /// - Parameters:
    ///   - store: every user's store (default: a fresh memory store).
    ///   - fakeProc: identify clients through a fake `/proc` (see ``FakeProc/present(_:)``).
    ///   - configure: last changes to the configuration before the daemon starts.
    init(
        sources: [any LocationSource], store: (any AuthorizationStore)? = nil, fakeProc: Bool = false,
        configure: (inout DaemonConfiguration) -> Void = { _ in }
    ) throws {
        temporary = try TemporaryDirectory()
        let directory = temporary.url
        socketPath = directory.path + "/d.sock"
        let store = store ?? MemoryAuthorizationStore()
        self.store = store
        self.fakeProc = fakeProc ? try FakeProc(root: directory.appendingPathComponent("proc")) : nil
        var configuration = DaemonConfiguration(
            instance: .user, socketPath: socketPath, stateDirectory: directory.appendingPathComponent("state"),
            sources: sources, storeFactory: { _ in store },
            promptEnvironment: ["HOME": directory.path, "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path],
            systemPolicyFile: directory.appendingPathComponent("no-system-policy.json"),
            procRoot: self.fakeProc?.root.path ?? "/proc",
            eventLoopThreads: 1)
        configure(&configuration)
        daemon = LocationDaemon(configuration: configuration)
        try daemon.start()
    }

    func client(reading: Bool = true) throws -> WireClient {
        try WireClient(socketPath: socketPath, reading: reading)
    }

    /// A client that has said hello and been welcomed.
    func welcomedClient() async throws -> (client: WireClient, identity: AppIdentity, authorization: EffectiveAuthorization) {
        let client = try client()
        let (identity, authorization) = try await client.hello()
        return (client, identity, authorization)
    }

    deinit {
        daemon.stop()
        temporary.remove()
    }
}

/// A fake `/proc` holding one entry: this process's pid, with the real `stat` and an `exe` link the
/// test points wherever it likes. The daemon reads `exe` when it accepts a connection, so a test can
/// connect as one app, wait for the welcome, and connect again as another.
final class FakeProc: @unchecked Sendable {
    let root: URL
    private var entry: URL { root.appendingPathComponent("\(getpid())") }

    init(root: URL) throws {
        self.root = root
        try FileManager.default.createDirectory(at: root.appendingPathComponent("\(getpid())"), withIntermediateDirectories: true)
        let stat = try Data(contentsOf: URL(fileURLWithPath: "/proc/self/stat"))
        try stat.write(to: root.appendingPathComponent("\(getpid())/stat"))
    }

    /// From now on this pid appears to belong to a new process (a later start time): the process the
    /// daemon saw before has exited, as far as the daemon can tell, and the pid was reused.
    func startAnotherProcess() throws {
        let path = entry.appendingPathComponent("stat")
        let text = try String(contentsOf: path, encoding: .utf8)
        guard let close = text.lastIndex(of: ")") else { throw WireClientError("no comm in \(path.path)") }
        var fields = text[text.index(after: close)...].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        // fields[0] is empty (the space after the comm); the start time is field 22, index 20 here.
        guard fields.count > 20, let start = UInt64(fields[20]) else { throw WireClientError("no start time in \(path.path)") }
        fields[20] = String(start + 1000)
        try (String(text[...close]) + fields.joined(separator: " ")).write(to: path, atomically: true, encoding: .utf8)
    }

    /// From now on this process appears to run `executable`.
    func present(_ executable: URL) throws {
        let link = entry.appendingPathComponent("exe")
        let temporary = entry.appendingPathComponent("exe.new")
        try? FileManager.default.removeItem(at: temporary)
        try FileManager.default.createSymbolicLink(atPath: temporary.path, withDestinationPath: executable.path)
        guard rename(temporary.path, link.path) == 0 else { throw WireClientError("rename: \(String(cString: strerror(errno)))") }
    }
}

/// An installed app: `DIRECTORY/NAME/NAME` (an empty file: only its path matters) with an Info.plist
/// beside it (none when `infoPlist` is nil).
func makeApp(in directory: URL, name: String, infoPlist: [String: Any]?) throws -> URL {
    let folder = directory.appendingPathComponent("apps/\(name)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let executable = folder.appendingPathComponent(name)
    guard FileManager.default.createFile(atPath: executable.path, contents: Data(), attributes: [.posixPermissions: 0o755]) else {
        throw WireClientError("cannot create \(executable.path)")
    }
    if let infoPlist {
        let data = try PropertyListSerialization.data(fromPropertyList: infoPlist, format: .xml, options: 0)
        try data.write(to: folder.appendingPathComponent("Info.plist"))
    }
    return executable
}

/// An Info.plist for an app that may ask for location while in use.
func appPlist(_ bundleID: String, name: String? = nil) -> [String: Any] {
    var plist: [String: Any] = [
        "CFBundleIdentifier": bundleID,
        "NSLocationWhenInUseUsageDescription": "Shows where you are.",
    ]
    if let name { plist["CFBundleDisplayName"] = name }
    return plist
}
