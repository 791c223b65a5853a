import ArgumentParser
import Foundation
import Testing
@testable import locationctl

/// Which way `locationctl`'s settings commands and `agent` go: a daemon, or the store.
@Suite struct DaemonRoutingTests {
    static func target(stateDir: String? = nil, socket: String? = nil, environment: [String: String]) throws -> SettingsTarget {
        try SettingsTarget(
            store: StoreOptions.parse(stateDir.map { ["--state-dir", $0] } ?? []),
            daemon: DaemonOptions.parse(socket.map { ["--socket", $0] } ?? []),
            environment: environment)
    }

    static func isDaemon(_ target: SettingsTarget, at path: String) -> Bool {
        if case .daemon(let socketPath) = target { return socketPath == path }
        return false
    }

    static func isStore(_ target: SettingsTarget) -> Bool {
        if case .store = target { return true }
        return false
    }

    @Test func aStateDirectoryMeansTheStoreAndASocketMeansThatDaemon() throws {
        let daemonEnvironment = ["CORELOCATION_DAEMON_SOCKET": "/run/d.sock"]
        #expect(Self.isStore(try Self.target(stateDir: "/tmp/s", environment: daemonEnvironment)),
                "--state-dir edits the store even when a daemon runs")
        #expect(Self.isDaemon(try Self.target(socket: "/tmp/d.sock", environment: daemonEnvironment), at: "/tmp/d.sock"))
        #expect(Self.isDaemon(try Self.target(environment: daemonEnvironment), at: "/run/d.sock"))
        #expect(Self.isStore(try Self.target(environment: ["CORELOCATION_DAEMON_SOCKET": "none"])))
        #expect(throws: ValidationError.self) { try Self.target(stateDir: "/tmp/s", socket: "/tmp/d.sock", environment: [:]) }
    }

    @Test func anUnreachableDaemonIsAClearFailure() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-daemon-\(UUID())/d.sock").path
        let output = try run(Executable.locationctl, ["grant", "com.example.maps", "--socket", missing])
        #expect(output.exitedNormally && output.status == 1)
        #expect(output.stderr.contains("locationd is not reachable at \(missing): No such file or directory"), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
        let apps = try run(Executable.locationctl, ["apps", "--socket", missing])
        #expect(apps.status == 1 && apps.stderr.contains("locationd is not reachable"))
    }

    @Test func theAgentNeedsADaemon() throws {
        // Test children run with CORELOCATION_DAEMON_SOCKET=none: nothing to discover.
        let output = try run(Executable.locationctl, ["agent"])
        #expect(output.exitedNormally && output.status == 1)
        #expect(output.stderr.contains("no locationd is running"))
    }

    @Test func theAgentEndsCleanlyAtEndOfInput() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-daemon-\(UUID())/d.sock").path
        let started = Date()
        let output = try run(Executable.locationctl, ["agent", "--socket", missing], timeout: 20)
        #expect(output.exitedNormally && output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Waiting for location requests from locationd at \(missing)."))
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
