import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where `locationd` listens and keeps its state, and how clients find it.
///
/// Discovery (clients): `CORELOCATION_DAEMON_SOCKET=PATH` uses the daemon at `PATH` (and keeps
/// reconnecting while it is down); `CORELOCATION_DAEMON_SOCKET=none` always uses the in-process engine.
/// Unset: the per-user socket if a daemon answers there, else the system socket if one answers there,
/// else the in-process engine.
public enum DaemonPaths {
    public static let socketEnvironmentVariable = "CORELOCATION_DAEMON_SOCKET"
    /// The value of ``socketEnvironmentVariable`` that turns discovery off.
    public static let inProcessValue = "none"

    /// The system instance (`locationd --system`, the systemd unit): one daemon for every user.
    public static let systemSocket = "/run/corelocation/locationd.sock"
    public static let systemStateDirectory = "/var/lib/corelocation"

    /// The per-user instance: `$XDG_RUNTIME_DIR/corelocation/locationd.sock`, else
    /// `/tmp/corelocation-UID/locationd.sock`.
    public static func userSocket(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/corelocation/locationd.sock"
        }
        return "/tmp/corelocation-\(getuid())/locationd.sock"
    }

    /// What discovery decided.
    public enum Choice: Sendable, Equatable {
        /// Talk to the daemon at this socket.
        case daemon(socketPath: String)
        /// Run the engine inside the process.
        case inProcess
    }

    /// Applies the discovery rules. `isListening` says whether a daemon answers at a socket path
    /// (injected so the rules can be tested without sockets).
    public static func discover(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        isListening: (String) -> Bool
    ) -> Choice {
        if let configured = environment[socketEnvironmentVariable], !configured.isEmpty {
            return configured == inProcessValue ? .inProcess : .daemon(socketPath: configured)
        }
        for candidate in [userSocket(environment: environment), systemSocket] where isListening(candidate) {
            return .daemon(socketPath: candidate)
        }
        return .inProcess
    }
}
