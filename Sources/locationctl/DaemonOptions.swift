import ArgumentParser
import Foundation
import LocationDaemonClient

/// Which `locationd` a command talks to.
struct DaemonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The socket of the locationd to use.",
        discussion: """
            Default: $\(DaemonDiscovery.socketEnvironmentVariable), else the per-user daemon \
            ($XDG_RUNTIME_DIR/corelocation/locationd.sock) if one runs, else the system daemon \
            (\(DaemonDiscovery.systemSocket)) if one runs.
            """,
        valueName: "path"))
    var socket: String?

    /// The daemon named by `--socket`, else the one discovery finds; nil when none runs.
    func discoveredSocket(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        socket ?? DaemonDiscovery.socketPath(environment: environment)
    }
}
