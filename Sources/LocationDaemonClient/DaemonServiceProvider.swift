import Foundation
import LocationProtocol
import Logging

/// The location service as `locationd` provides it, over its Unix socket.
///
/// Who the app is, is the daemon's business: it identifies the peer from the kernel, so the
/// `app`, `info` and `process` given to ``connect(app:info:process:events:)`` are not sent (the
/// daemon's verdict arrives with its welcome and is logged at debug level).
public final class DaemonServiceProvider: LocationServiceProvider {
    public let socketPath: String
    private let handshakeTimeout: TimeInterval
    private let backoff: ReconnectBackoff
    private let logger: Logger
    private let registry = AuthorizationRegistry()

    /// - Parameters:
    ///   - socketPath: where the daemon listens (see `DaemonPaths`).
    ///   - handshakeTimeout: how long `connect` and `currentAuthorization` wait for the daemon's welcome.
    public convenience init(
        socketPath: String, handshakeTimeout: TimeInterval = 1,
        logger: Logger = Logger(label: "corelocation.daemon-client")
    ) {
        self.init(socketPath: socketPath, handshakeTimeout: handshakeTimeout, backoff: ReconnectBackoff(), logger: logger)
    }

    init(socketPath: String, handshakeTimeout: TimeInterval, backoff: ReconnectBackoff, logger: Logger) {
        self.socketPath = socketPath
        self.handshakeTimeout = handshakeTimeout
        self.backoff = backoff
        self.logger = logger
    }

    /// The provider for the daemon that discovery finds (`DaemonPaths.discover` with the real
    /// ``DaemonPaths/isListening(_:)`` probe), or nil when the app should run the engine itself.
    public static func discovered(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> DaemonServiceProvider? {
        DaemonDiscovery.socketPath(environment: environment).map { DaemonServiceProvider(socketPath: $0) }
    }

    /// Connects and waits (up to the handshake timeout) for the daemon's welcome, so that
    /// `initialAuthorization` is the daemon's answer. When the daemon cannot be reached it is
    /// `.notDetermined` at once, and the connection keeps trying in the background.
    public func connect(
        app: AppIdentity, info: AppInfo, process: ProcessStamp,
        events: @escaping @Sendable (ServiceEvent) -> Void
    ) -> any ClientConnection {
        let session = AppSession(
            socketPath: socketPath, registry: registry, backoff: backoff, logger: logger, events: events)
        session.start()
        let initial = session.initialAuthorization(timeout: handshakeTimeout)
        return DaemonConnection(session: session, initialAuthorization: initial)
    }

    /// The authorization the daemon last reported on any live connection of this provider; without
    /// one, a short connection just for the welcome. `.notDetermined` when the daemon cannot be reached.
    public func currentAuthorization(app: AppIdentity, process: ProcessStamp) -> EffectiveAuthorization {
        if let live = registry.any { return live }
        do {
            let exchange = try DaemonExchange(socketPath: socketPath, timeout: handshakeTimeout)
            exchange.close()
            return exchange.authorization
        } catch {
            logger.debug("cannot ask locationd for the app's authorization", metadata: ["error": "\(error)"])
            return .notDetermined
        }
    }
}
