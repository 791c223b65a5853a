import Foundation
import LocationCore
import LocationProtocol
import Logging

/// The location service as `locationd` provides it, over its Unix socket.
///
/// One provider serves a whole process (CoreLocation keeps one), and all its connections share
/// one socket (``DaemonLink``): the daemon identifies the process once. Who the app is, is the
/// daemon's business: it identifies the peer from the kernel, so the `app`, `info` and `process`
/// given to ``connect(app:info:process:events:)`` are not sent (the daemon's verdict arrives with
/// its welcome and is logged at debug level).
public final class DaemonServiceProvider: LocationServiceProvider {
    public let socketPath: String
    private let handshakeTimeout: TimeInterval
    /// Internal, not private: tests wait for its welcome.
    let link: DaemonLink
    private let logger: Logger

    /// - Parameters:
    ///   - socketPath: where the daemon listens (see `DaemonPaths`).
    ///   - handshakeTimeout: how long connections wait for the daemon's first answer before they
    ///     start as not determined, and ``currentAuthorization(app:process:)`` for a welcome when
    ///     no connection is up.
    ///   - loop: where the link's state lives and its reconnection delays are timed.
    public convenience init(
        socketPath: String, handshakeTimeout: TimeInterval = 1,
        loop: any EngineLoop = RealtimeLoop(label: "corelocation.daemon-client"),
        logger: Logger = Logger(label: "corelocation.daemon-client")
    ) {
        self.init(socketPath: socketPath, handshakeTimeout: handshakeTimeout, loop: loop, backoff: Backoff.daemonReconnection, logger: logger)
    }

    init(socketPath: String, handshakeTimeout: TimeInterval, loop: any EngineLoop, backoff: Backoff, logger: Logger) {
        self.socketPath = socketPath
        self.handshakeTimeout = handshakeTimeout
        self.logger = logger
        link = DaemonLink(socketPath: socketPath, loop: loop, backoff: backoff, handshakeTimeout: handshakeTimeout, logger: logger)
    }

    /// The provider for the daemon that discovery finds (`DaemonPaths.discover` with the real
    /// ``DaemonPaths/isListening(_:)`` probe), or nil when the app should run the engine itself.
    public static func discovered(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> DaemonServiceProvider? {
        DaemonDiscovery.socketPath(environment: environment).map { DaemonServiceProvider(socketPath: $0) }
    }

    /// A new set of streams on the process's connection. Never waits: when the daemon has not
    /// answered yet, `initialAuthorization` is nil and the authorization is the first event.
    public func connect(
        app: AppIdentity, info: AppInfo, process: ProcessStamp,
        events: @escaping @Sendable (ServiceEvent) -> Void
    ) -> any ClientConnection {
        link.open(events: events)
    }

    /// The authorization the daemon last reported on the process's connection; without one, a short
    /// connection just for the welcome. `.notDetermined` when the daemon cannot be reached.
    public func currentAuthorization(app: AppIdentity, process: ProcessStamp) -> EffectiveAuthorization {
        link.authorization ?? fromWelcome(\.authorization, unreachable: .notDetermined, "the app's authorization")
    }

    /// What the daemon's sources can measure, as its welcome on the process's connection said; without
    /// one, a short connection just for the welcome. None when the daemon cannot be reached: none of its
    /// sources can serve the app then (asked again once it is back, it answers what it has).
    public var capabilities: ServiceCapabilities {
        link.capabilities ?? fromWelcome(\.capabilities, unreachable: [], "what its sources measure")
    }

    /// `answer` of the welcome on a short connection just for it; `unreachable` when there is none.
    private func fromWelcome<Answer>(
        _ answer: KeyPath<DaemonExchange, Answer>, unreachable: Answer, _ what: String
    ) -> Answer {
        do {
            let exchange = try DaemonExchange(socketPath: socketPath, timeout: handshakeTimeout)
            exchange.close()
            return exchange[keyPath: answer]
        } catch {
            logger.debug("cannot ask locationd for \(what)", metadata: ["error": "\(error)"])
            return unreachable
        }
    }

    public var hasLocationSources: Bool { capabilities.contains(.locations) }
    public var hasHeadingSources: Bool { capabilities.contains(.headings) }
    public var hasBeaconSources: Bool { capabilities.contains(.beacons) }
}
