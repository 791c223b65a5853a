import Foundation
import LocationPolicy
import LocationWire

#if canImport(Glibc)
import Glibc
#endif

extension DaemonConfiguration {
    /// `DaemonPaths.userSocket()` for a user instance, `DaemonPaths.systemSocket` for the system's.
    public static func defaultSocketPath(
        for instance: Instance, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        instance == .user ? DaemonPaths.userSocket(environment: environment) : DaemonPaths.systemSocket
    }

    /// A user instance keeps its state where the in-process engine does (one store, whichever runs);
    /// the system instance in `DaemonPaths.systemStateDirectory`.
    public static func defaultStateDirectory(
        for instance: Instance, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        instance == .user
            ? FileAuthorizationStore.defaultDirectory(environment: environment)
            : URL(fileURLWithPath: DaemonPaths.systemStateDirectory, isDirectory: true)
    }

    /// Each user's authorization store in `directory`.
    public static func standardStores(in directory: URL) -> @Sendable (uid_t) -> any AuthorizationStore {
        let own = getuid()
        return { uid in
            FileAuthorizationStore(directory: uid == own ? directory : directory.appendingPathComponent("uid-\(uid)", isDirectory: true))
        }
    }
}
