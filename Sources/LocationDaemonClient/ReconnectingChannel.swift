import Foundation
import LocationCore
import LocationProtocol
import LocationWire
import Logging
import NIOCore

/// A connection to `locationd` that comes back on its own: when the daemon cannot be reached or goes
/// away (even `kill -9`), it tries again after a ``Backoff`` delay, for as long as it is open.
///
/// Confined to `loop`: every method must be called there, and every handler runs there. The owner
/// keeps what must survive a reconnection (streams, prompts) and re-sends it from `welcomed`.
final class ReconnectingChannel: @unchecked Sendable {
    /// What the owner is told, inside `loop`.
    struct Handlers {
        /// The daemon accepted a connection (the first, or a new one after a loss).
        var welcomed: (AppIdentity, EffectiveAuthorization, ServiceCapabilities) -> Void
        /// A message after the welcome.
        var received: (DaemonMessage) -> Void
        /// An attempt ended without a welcome (`wasWelcomed == false`: unreachable, refused, closed
        /// early), or a welcomed connection was lost. A new attempt is already scheduled.
        var down: (_ wasWelcomed: Bool) -> Void
    }

    let socketPath: String
    let loop: any EngineLoop
    private let handlers: Handlers
    private let logger: Logger
    private let connectTimeout: TimeAmount

    // Confined to `loop`.
    private var backoff: Backoff
    /// Identifies the current attempt; callbacks of earlier attempts are ignored.
    private var attempt: UInt64 = 0
    private var channel: WireChannel?
    private var isWelcomed = false
    private var isClosed = false
    /// Since when the daemon has been away (so an absence is reported once, not every second).
    private var failingSince: Date?

    init(
        socketPath: String, loop: any EngineLoop, backoff: Backoff = Backoff.daemonReconnection,
        connectTimeout: TimeAmount = .seconds(1), logger: Logger, handlers: Handlers
    ) {
        self.socketPath = socketPath
        self.loop = loop
        self.backoff = backoff
        self.connectTimeout = connectTimeout
        self.logger = logger
        self.handlers = handlers
    }

    /// Makes the first attempt.
    func start() {
        loop.preconditionInLoop()
        guard !isClosed, attempt == 0 else { return }
        attempt += 1
        connect(attempt)
    }

    /// Sends a message on the welcomed connection; without one it is dropped (the owner re-sends
    /// what still matters after the next welcome).
    func send(_ message: ClientMessage) {
        loop.preconditionInLoop()
        guard isWelcomed, let channel else { return }
        do {
            try channel.send(message)
        } catch {
            logger.error("cannot send a message to locationd", metadata: ["error": "\(error)"])
        }
    }

    /// Closes the connection and stops reconnecting. Safe to call more than once.
    func close() {
        loop.preconditionInLoop()
        guard !isClosed else { return }
        isClosed = true
        attempt += 1
        channel?.close()
        channel = nil
        isWelcomed = false
    }

    // MARK: Attempts

    private func connect(_ id: UInt64) {
        logger.trace("connecting to locationd", metadata: ["socket": "\(socketPath)", "attempt": "\(id)"])
        WireChannel.connect(socketPath: socketPath, timeout: connectTimeout) { [self] channel, event in
            loop.execute { self.handle(event, on: channel, attempt: id) }
        }.whenComplete { [self] result in
            loop.execute {
                switch result {
                case .success(let channel): self.connected(channel, attempt: id)
                case .failure(let error): self.connectFailed(error, attempt: id)
                }
            }
        }
    }

    private func connected(_ channel: WireChannel, attempt id: UInt64) {
        guard id == attempt, !isClosed else { return channel.close() }
        if self.channel == nil { self.channel = channel }
    }

    private func connectFailed(_ error: any Error, attempt id: UInt64) {
        guard id == attempt, !isClosed else { return }
        let failure = DaemonClientError.unreachable(socketPath, error)
        if failingSince == nil {
            failingSince = loop.now
            logger.notice("locationd is not reachable; trying again until it is", metadata: ["error": "\(failure)"])
        } else {
            logger.debug("locationd still not reachable", metadata: ["error": "\(failure)"])
        }
        retry(wasWelcomed: false)
    }

    private func handle(_ event: WireChannel.Event, on channel: WireChannel, attempt id: UInt64) {
        guard id == attempt, !isClosed else {
            // A connection of an attempt that was given up (or of a closed owner) must not linger.
            if case .message = event { channel.close() }
            return
        }
        if self.channel == nil { self.channel = channel }
        switch event {
        case .message(let message):
            if isWelcomed {
                handlers.received(message)
            } else {
                greeted(with: message, on: channel)
            }
        case .closed(let failure):
            let wasWelcomed = isWelcomed
            if wasWelcomed {
                logger.notice("lost the connection to locationd; reconnecting", metadata: [
                    "socket": "\(socketPath)", "reason": "\(failure ?? "closed by the daemon")",
                ])
                // Announced: the failed attempts that follow are details until it is back.
                failingSince = loop.now
            } else if let failure {
                logger.debug("connection to locationd failed before its welcome", metadata: ["reason": "\(failure)"])
            }
            retry(wasWelcomed: wasWelcomed)
        }
    }

    /// The first message on a connection must be the welcome (or a refusal).
    private func greeted(with message: DaemonMessage, on channel: WireChannel) {
        switch message {
        case let .welcome(identity, authorization, capabilities):
            if let since = failingSince {
                logger.notice("connected to locationd", metadata: [
                    "socket": "\(socketPath)", "after": "\(String(format: "%.1f", loop.now.timeIntervalSince(since))) s",
                ])
            }
            failingSince = nil
            isWelcomed = true
            backoff.reset()
            logger.debug("locationd identified this process", metadata: [
                "app": "\(identity.id)", "name": "\(identity.displayName)", "executable": "\(identity.executablePath)",
            ])
            handlers.welcomed(identity, authorization, capabilities)
        case .refused(let reason):
            if failingSince == nil {
                failingSince = loop.now
                logger.error("locationd refused the connection; trying again", metadata: ["reason": "\(reason)"])
            }
            channel.close()
        default:
            logger.error("locationd sent something else than a welcome first; reconnecting", metadata: [
                "message": "\(message)",
            ])
            channel.close()
        }
    }

    private func retry(wasWelcomed: Bool) {
        channel = nil
        isWelcomed = false
        attempt += 1
        let id = attempt
        let delay = backoff.nextDelay()
        handlers.down(wasWelcomed)
        loop.schedule(after: delay) { [self] in
            guard id == attempt, !isClosed else { return }
            connect(id)
        }
    }
}
