import Foundation
import LocationWire

/// `DaemonPaths.discover` with the real ``DaemonPaths/isListening(_:)`` probe, for clients that only
/// need the answer (apps, `locationctl`).
public enum DaemonDiscovery {
    /// The socket of the daemon to talk to, or nil when none runs (or `CORELOCATION_DAEMON_SOCKET=none`).
    public static func socketPath(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        switch DaemonPaths.discover(environment: environment, isListening: DaemonPaths.isListening) {
        case .daemon(let socketPath): socketPath
        case .inProcess: nil
        }
    }

    /// Where the system daemon listens (for help texts).
    public static var systemSocket: String { DaemonPaths.systemSocket }

    /// The environment variable that names a daemon's socket (or `none`).
    public static var socketEnvironmentVariable: String { DaemonPaths.socketEnvironmentVariable }
}
