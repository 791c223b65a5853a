import Foundation
import LocationPolicy
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemon

#if canImport(Glibc)
import Glibc
#endif

/// The socket file: permissions per instance, stale sockets, a second daemon, cleanup.
@Suite(.timeLimit(.minutes(2)))
struct DaemonSocketTests {
    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o7777
    }

    static func configuration(_ instance: DaemonConfiguration.Instance, socket: String, state: URL) -> DaemonConfiguration {
        DaemonConfiguration(
            instance: instance, socketPath: socket, stateDirectory: state, sources: [],
            storeFactory: { _ in MemoryAuthorizationStore() }, promptEnvironment: [:],
            systemPolicyFile: state.appendingPathComponent("none.json"), eventLoopThreads: 1)
    }

    @Test(arguments: [(DaemonConfiguration.Instance.user, mode_t(0o700), mode_t(0o600)), (.system, 0o755, 0o666)])
    func permissionsFollowTheInstance(instance: DaemonConfiguration.Instance, directoryMode: mode_t, socketMode: mode_t) throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let root = temporary.url
        let socket = root.path + "/run/d.sock"
        let daemon = LocationDaemon(configuration: Self.configuration(instance, socket: socket, state: root))
        try daemon.start()
        #expect(Self.mode(root.path + "/run") == directoryMode)
        #expect(Self.mode(socket) == socketMode)
        daemon.stop()
        #expect(Self.mode(socket) == nil, "stop removes the socket")
        #expect(!DaemonPaths.isListening(socket))
    }

    @Test func aLiveDaemonIsNotReplacedButAStaleSocketIs() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let root = temporary.url
        let socket = root.path + "/d.sock"
        let first = LocationDaemon(configuration: Self.configuration(.user, socket: socket, state: root))
        try first.start()
        let second = LocationDaemon(configuration: Self.configuration(.user, socket: socket, state: root))
        #expect(throws: DaemonError("locationd is already running at \(socket)")) { try second.start() }
        #expect(DaemonPaths.isListening(socket), "the first daemon still serves")
        first.stop()

        // A socket file left behind by a daemon that died: bound, never listened on.
        let stale = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(socket.utf8))
            raw[socket.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(stale)
        try #require(bound == 0)
        #expect(Self.mode(socket) != nil)
        try second.start()
        #expect(DaemonPaths.isListening(socket))
        second.stop()
    }

    @Test func aFileThatIsNotASocketIsLeftAlone() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let root = temporary.url
        let path = root.path + "/d.sock"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        let daemon = LocationDaemon(configuration: Self.configuration(.user, socket: path, state: root))
        #expect(throws: DaemonError("\(path) exists and is not a socket; not touching it")) { try daemon.start() }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
    }

    @Test func aPathTooLongForAUnixSocketIsAClearError() throws {
        let path = "/tmp/" + String(repeating: "x", count: 120) + "/d.sock"
        let daemon = LocationDaemon(configuration: Self.configuration(.user, socket: path, state: URL(fileURLWithPath: "/tmp")))
        #expect(throws: DaemonError.self) { try daemon.start() }
    }
}
