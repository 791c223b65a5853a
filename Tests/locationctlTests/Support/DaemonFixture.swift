import Foundation
import TestSupport
import Testing

/// A real `locationd` on a temporary socket, and real app processes that talk to it.
///
/// Apps are `corelocation-example` hard-linked into directories of their own with an Info.plist
/// beside it, exactly how the daemon finds an app's identity (it reads /proc/PID/exe, never the
/// client's word).
final class DaemonFixture: @unchecked Sendable {
    private let temporary: TemporaryDirectory
    var directory: URL { temporary.url }
    var socket: String { directory.appendingPathComponent("d.sock").path }
    var state: URL { directory.appendingPathComponent("state") }
    private(set) var daemon: Child?

    init() throws {
        temporary = try TemporaryDirectory()
    }

    /// Starts the daemon and waits until it listens.
    @discardableResult
    func startDaemon(sources: [String] = ["sim:walk"], environment: [String: String] = [:]) throws -> Child {
        var arguments = ["--socket", socket, "--state-dir", state.path]
        for source in sources { arguments += ["--source", source] }
        let child = try Child(Executable.locationd, arguments, environment: environment)
        _ = child.wait(timeout: 20) {
            !child.process.isRunning || (child.stdoutText + child.stderr).contains("listening on")
        }
        try #require((child.stdoutText + child.stderr).contains("listening on"), "locationd did not start: \(child.stderr)")
        daemon = child
        return child
    }

    /// SIGKILL, as a crash would.
    func killDaemon() {
        guard let daemon else { return }
        kill(daemon.process.processIdentifier, SIGKILL)
        daemon.process.waitUntilExit()
    }

    /// An app: its own directory holding a hard link to `corelocation-example` and (optionally) an Info.plist.
    func makeApp(_ name: String, bundleID: String?, whenInUse: String? = "Shows where you are.") throws -> URL {
        let folder = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let executable = folder.appendingPathComponent("corelocation-example")
        try FileManager.default.linkItem(at: Executable.example, to: executable)
        if let bundleID { _ = try writeInfoPlist(in: folder, bundleID: bundleID, whenInUse: whenInUse) }
        return executable
    }

    /// Starts an app that talks to this daemon.
    func launch(
        _ executable: URL, count: Int = 100_000, arguments: [String] = [], environment: [String: String] = [:]
    ) throws -> Child {
        var env = ["CORELOCATION_DAEMON_SOCKET": socket]
        for (key, value) in environment { env[key] = value }
        return try Child(executable, [String(count)] + arguments, environment: env)
    }

    /// `locationctl` through this daemon.
    func ctl(_ arguments: [String]) throws -> Finished {
        try run(Executable.locationctl, arguments, environment: ["CORELOCATION_DAEMON_SOCKET": socket])
    }

    /// SIGTERM, as systemd stops it; returns what it printed.
    @discardableResult
    func stopDaemon() -> Finished? {
        guard let daemon else { return nil }
        if daemon.process.isRunning { kill(daemon.process.processIdentifier, SIGTERM) }
        return daemon.finish(timeout: 5)
    }

    /// Stops the daemon and removes everything.
    func stop() {
        stopDaemon()
        temporary.remove()
    }
}
