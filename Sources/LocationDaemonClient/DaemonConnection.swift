import Dispatch
import Foundation
import LocationCore
import LocationProtocol
import LocationWire
import Logging
import NIOCore
import NIOPosix

/// An app's connection to `locationd` (one per manager or `liveUpdates()` iteration): the socket
/// transport behind `ClientConnection`.
///
/// It reconnects on its own when the daemon goes away and comes back, re-sending the streams and
/// the authorization request the app still has active; the app sees no duplicate and no phantom
/// event across the gap (see ``AppSessionState``). Events are delivered in order, one at a time,
/// and none after ``close()``.
public final class DaemonConnection: ClientConnection {
    public let initialAuthorization: EffectiveAuthorization
    private let session: AppSession

    init(session: AppSession, initialAuthorization: EffectiveAuthorization) {
        self.session = session
        self.initialAuthorization = initialAuthorization
    }

    deinit { session.close() }

    public func send(_ request: ClientRequest) { session.send(request) }

    /// Closes the socket and stops reconnecting. Safe to call twice; nothing is delivered after it returns.
    public func close() { session.close() }
}

/// The working part of a ``DaemonConnection``: the reconnecting socket and the session state,
/// confined to one serial queue.
final class AppSession: @unchecked Sendable {
    private let queue: DispatchQueue
    private let gate: DeliveryGate<ServiceEvent>
    private let registry: AuthorizationRegistry
    private let id: UInt64
    private let logger: Logger
    private var channel: ReconnectingChannel!
    private let firstAttemptSettled = DispatchSemaphore(value: 0)

    // Confined to `queue`.
    private var state = AppSessionState()
    private var hasSettledFirstAttempt = false

    init(
        socketPath: String, registry: AuthorizationRegistry, backoff: ReconnectBackoff, logger: Logger,
        events: @escaping @Sendable (ServiceEvent) -> Void
    ) {
        queue = DispatchQueue(label: "corelocation.daemon-client.app")
        gate = DeliveryGate(events)
        self.registry = registry
        id = registry.newConnectionID()
        self.logger = logger
        channel = ReconnectingChannel(
            socketPath: socketPath, queue: queue, backoff: backoff, logger: logger,
            handlers: .init(
                welcomed: { [weak self] _, authorization in self?.welcomed(authorization) },
                received: { [weak self] message in self?.received(message) },
                down: { [weak self] wasWelcomed in self?.down(wasWelcomed: wasWelcomed) }))
    }

    func start() {
        queue.async { self.channel.start() }
    }

    /// Waits (up to `timeout`) for the first attempt to end — welcomed, refused or unreachable — and
    /// returns the authorization the app starts with. Never waits on an event loop's thread, whose
    /// own work the handshake needs.
    func initialAuthorization(timeout: TimeInterval) -> EffectiveAuthorization {
        if MultiThreadedEventLoopGroup.currentEventLoop == nil {
            if firstAttemptSettled.wait(timeout: .now() + timeout) == .timedOut {
                logger.notice("locationd did not answer in time; starting as not determined", metadata: [
                    "timeout": "\(timeout) s",
                ])
            }
        } else {
            logger.debug("connecting from an event loop: not waiting for locationd's welcome")
        }
        return queue.sync { state.reportInitial() }
    }

    func send(_ request: ClientRequest) {
        queue.async {
            if let now = self.state.appSent(request) { self.channel.send(.request(now)) }
        }
    }

    func close() {
        guard !gate.isClosed else { return }
        gate.close()
        queue.async {
            self.channel.close()
            self.registry.remove(self.id)
        }
    }

    // MARK: On the queue

    private func welcomed(_ authorization: EffectiveAuthorization) {
        let (events, resend) = state.welcomed(authorization)
        registry.set(authorization, for: id)
        for event in events { gate.deliver(event) }
        for request in resend { channel.send(.request(request)) }
        if !resend.isEmpty {
            logger.debug("re-sent the app's active requests to locationd", metadata: ["count": "\(resend.count)"])
        }
        settleFirstAttempt()
    }

    private func received(_ message: DaemonMessage) {
        switch message {
        case .event(let event):
            let shown = state.received(event)
            if case .authorizationChanged(let authorization) = event { registry.set(authorization, for: id) }
            if let shown { gate.deliver(shown) }
        case .refused(let reason):
            logger.error("locationd refused this app", metadata: ["reason": "\(reason)"])
        default:
            logger.debug("ignoring a message meant for another kind of client", metadata: ["message": "\(message)"])
        }
    }

    /// Nothing is delivered while disconnected (the loss is logged by the channel); the app's
    /// requests wait for the next welcome.
    private func down(wasWelcomed: Bool) {
        state.disconnected()
        registry.remove(id)
        settleFirstAttempt()
    }

    private func settleFirstAttempt() {
        guard !hasSettledFirstAttempt else { return }
        hasSettledFirstAttempt = true
        firstAttemptSettled.signal()
    }
}

/// The daemon's latest authorization on each welcomed connection of a provider (all of one process,
/// hence one app), so that `currentAuthorization` needs no new connection while one is up.
final class AuthorizationRegistry: Sendable {
    private let state = Locked<(lastID: UInt64, authorizations: [UInt64: EffectiveAuthorization])>((0, [:]))

    func newConnectionID() -> UInt64 {
        state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
    }

    func set(_ authorization: EffectiveAuthorization, for id: UInt64) {
        state.withLock { $0.authorizations[id] = authorization }
    }

    func remove(_ id: UInt64) {
        state.withLock { _ = $0.authorizations.removeValue(forKey: id) }
    }

    /// The authorization of any welcomed connection (the most recent connection's), nil when none is up.
    var any: EffectiveAuthorization? {
        state.withLock { state in state.authorizations.max { $0.key < $1.key }?.value }
    }
}
