import ArgumentParser
import Dispatch
import Foundation
import LocationAccess
import LocationApproximation
import LocationDaemon
import LocationSources
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// `locationd`: the location daemon, in the foreground, logging to standard error.
@main
struct Locationd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locationd",
        abstract: "Serve locations to apps over a Unix socket, enforcing each app's authorization.",
        discussion: """
            A user instance (the default) serves one user; --system serves every user and runs as root \
            (it reads each client's /proc/PID/exe to identify it). Prints "locationd: listening on PATH" \
            when ready; SIGTERM or SIGINT stop it cleanly.
            """)

    @Flag(help: "Run the system instance (one daemon for every user).")
    var system = false

    @Option(help: ArgumentHelp("The socket to listen on.", valueName: "path"))
    var socket: String?

    @Option(name: .customLong("state-dir"), help: ArgumentHelp(
        "Where to keep authorizations and the sealed last location.", valueName: "dir"))
    var stateDirectory: String?

    @Option(name: .customLong("source"), help: ArgumentHelp(
        "A location source, repeatable (\(SourceSpec.Scheme.allCases.map(\.usage).joined(separator: ", "))). Default: the configured sources.",
        valueName: "spec"))
    var sources: [String] = []

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Option(name: .customLong("fence-limit"), help: ArgumentHelp(
        "How many regions and CLMonitor conditions each app may monitor (not Apple's: Apple allows \(FenceLimits.appleFencesPerApp)).",
        valueName: "count"))
    var fenceLimit: Int = FenceLimits.appleFencesPerApp

    func validate() throws {
        guard fenceLimit >= 1 else { throw ValidationError("--fence-limit must be at least 1") }
        for spec in sources {
            do {
                _ = try SourceSpec(spec)
            } catch {
                throw ValidationError("--source \(spec): \(error)")
            }
        }
    }

    func run() throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "corelocation.locationd")
        DescriptorLimit.raiseToHardLimit(logger: logger)
        let instance: DaemonConfiguration.Instance = system ? .system : .user
        let stateDirectory = stateDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? DaemonConfiguration.defaultStateDirectory(for: instance)
        let configuration = DaemonConfiguration(
            instance: instance,
            socketPath: socket ?? DaemonConfiguration.defaultSocketPath(for: instance),
            stateDirectory: stateDirectory,
            sources: try makeSources(logger: logger),
            storeFactory: DaemonConfiguration.standardStores(in: stateDirectory),
            lastLocationStore: DaemonConfiguration.standardLastLocationStore(in: stateDirectory, logger: logger),
            fenceStorageFactory: DaemonConfiguration.standardFenceStorage(in: stateDirectory, logger: logger),
            fenceLimits: FenceLimits(fencesPerApp: fenceLimit),
            approximateStorageFactory: DaemonConfiguration.standardApproximateStorage(in: stateDirectory, logger: logger),
            approximateRegions: DeviceApproximateRegions.load(stateDirectory: stateDirectory, logger: logger),
            visitStorageFactory: DaemonConfiguration.standardVisitStorage(in: stateDirectory, logger: logger))
        let daemon = LocationDaemon(configuration: configuration, logger: logger)
        try daemon.start()
        let signals = Self.stopOnSignals(daemon)
        // Unbuffered, so whoever started the daemon sees the line at once (tests wait for it).
        FileHandle.standardOutput.write(Data("locationd: listening on \(configuration.socketPath)\n".utf8))
        // The main thread waits here for good, rather than in `dispatchMain()`, which ends it with
        // `pthread_exit`: what only its stack holds — this command, the daemon, the signal sources —
        // then looked leaked to LeakSanitizer at exit (the soak's leak check).
        withExtendedLifetime(signals) { DispatchSemaphore(value: 0).wait() }
    }

    private func makeSources(logger: Logger) throws -> [any LocationSource] {
        guard !sources.isEmpty else { return SourceConfiguration.configuredSources(logger: logger) }
        let specs = try sources.map { try SourceSpec($0) }
        return SourceConfiguration(specs: specs, origin: "--source").makeSources(logger: logger)
    }

    /// SIGTERM and SIGINT stop the daemon (connections closed, state saved, socket removed), then exit 0.
    private static func stopOnSignals(_ daemon: LocationDaemon) -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "locationd.signals")
        return [SIGTERM, SIGINT].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                daemon.stop()
                Glibc.exit(0)
            }
            source.activate()
            return source
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
