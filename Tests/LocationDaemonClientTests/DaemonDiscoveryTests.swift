import Foundation
import LocationCore
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemonClient

/// Which daemon an app or `locationctl` talks to: the rules, and the real probe behind them.
@Suite struct DaemonDiscoveryTests {
    static let runtime = ["XDG_RUNTIME_DIR": "/run/user/1000"]
    static let userSocket = "/run/user/1000/corelocation/locationd.sock"

    @Test func anExplicitSocketIsUsedWithoutProbingAndNoneMeansInProcess() {
        let configured = DaemonPaths.discover(environment: ["CORELOCATION_DAEMON_SOCKET": "/tmp/x/d.sock"]) { _ in
            Issue.record("an explicit socket is not probed")
            return false
        }
        #expect(configured == .daemon(socketPath: "/tmp/x/d.sock"))
        #expect(DaemonPaths.discover(environment: ["CORELOCATION_DAEMON_SOCKET": "none"]) { _ in true } == .inProcess)
    }

    @Test func theProviderFollowsDiscovery() throws {
        let daemon = try FakeDaemon(socketName: "corelocation/locationd.sock")
        #expect(DaemonServiceProvider.discovered(environment: ["CORELOCATION_DAEMON_SOCKET": "/tmp/x/d.sock"])?.socketPath
                == "/tmp/x/d.sock")
        #expect(DaemonServiceProvider.discovered(environment: ["CORELOCATION_DAEMON_SOCKET": "none"]) == nil)
        try daemon.start()
        #expect(DaemonServiceProvider.discovered(environment: ["XDG_RUNTIME_DIR": daemon.directory])?.socketPath
                == daemon.socketPath)
    }

    @Test func theUserDaemonComesFirstThenTheSystemOneThenTheEngineInProcess() {
        #expect(DaemonPaths.discover(environment: Self.runtime) { _ in true } == .daemon(socketPath: Self.userSocket))
        #expect(DaemonPaths.discover(environment: Self.runtime) { $0 == DaemonPaths.systemSocket }
                == .daemon(socketPath: DaemonPaths.systemSocket))
        #expect(DaemonPaths.discover(environment: Self.runtime) { _ in false } == .inProcess)
        let probed = Locked([String]())
        _ = DaemonPaths.discover(environment: [:]) { path in
            probed.withLock { $0.append(path) }
            return false
        }
        #expect(probed.withLock { $0 } == ["/tmp/corelocation-\(getuid())/locationd.sock", DaemonPaths.systemSocket])
    }

    @Test func theProbeTellsALiveDaemonFromAStaleSocketFile() throws {
        // A per-user daemon in its documented place under a private XDG_RUNTIME_DIR.
        let daemon = try FakeDaemon(socketName: "corelocation/locationd.sock")
        let environment = ["XDG_RUNTIME_DIR": daemon.directory]
        let withoutUserDaemon: [DaemonPaths.Choice] = [.inProcess, .daemon(socketPath: DaemonPaths.systemSocket)]
        #expect(!DaemonPaths.isListening(daemon.socketPath), "no file")
        #expect(withoutUserDaemon.contains(DaemonPaths.discover(environment: environment, isListening: DaemonPaths.isListening)))

        try daemon.start()
        #expect(DaemonPaths.isListening(daemon.socketPath))
        #expect(DaemonPaths.discover(environment: environment, isListening: DaemonPaths.isListening)
                == .daemon(socketPath: daemon.socketPath))

        daemon.stop()
        #expect(FileManager.default.fileExists(atPath: daemon.socketPath), "kill -9 leaves the socket file")
        #expect(!DaemonPaths.isListening(daemon.socketPath), "nobody listens behind it")
        #expect(withoutUserDaemon.contains(DaemonPaths.discover(environment: environment, isListening: DaemonPaths.isListening)))
    }

    @Test func theProbeRejectsPathsThatCannotBeSockets() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.path
        let file = directory + "/plain"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(!DaemonPaths.isListening(file))
        #expect(!DaemonPaths.isListening(directory))
        #expect(!DaemonPaths.isListening(""))
        #expect(!DaemonPaths.isListening("/tmp/" + String(repeating: "x", count: 200)))
    }
}
