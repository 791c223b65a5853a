import Foundation
import LocationCore
import LocationProtocol
import LocationWire
import Logging

/// A question `locationd` asks its agent, valid on the connection it came from.
public struct AgentPrompt: Sendable, Equatable {
    /// The daemon's id for the prompt (unique on one connection only).
    public let id: UInt64
    public let request: PromptRequest
    /// Which welcomed connection asked: answers to a prompt of an earlier connection are dropped.
    let connection: UInt64

    init(id: UInt64, request: PromptRequest, connection: UInt64) {
        self.id = id
        self.request = request
        self.connection = connection
    }

    /// A prompt that belongs to no connection, for stand-ins of a connection (tests, previews): a real
    /// connection drops any answer to it.
    public init(id: UInt64, request: PromptRequest) {
        self.init(id: id, request: request, connection: 0)
    }
}

/// What an ``AgentConnection`` reports, in order, one at a time.
public enum AgentEvent: Sendable, Equatable {
    /// Registered as the agent (again, after the daemon came back).
    case registered
    /// A question to show the user; answer it with ``AgentConnection/answer(_:with:)``.
    case prompt(AgentPrompt)
    /// The question no longer needs an answer (answered elsewhere, its app went away, or the daemon did).
    case withdrawn(AgentPrompt)
    /// The daemon refused this agent (and closed the connection); the connection keeps trying.
    case refused(String)
    /// The daemon went away (every open question was withdrawn first); the connection is reconnecting.
    case disconnected
}

/// The client side of `locationctl agent`: registers as the calling user's prompt agent, hands each
/// question to `events`, sends the answers back, and reconnects and registers again when the daemon
/// restarts.
public final class AgentConnection: Sendable {
    private let state: AgentConnectionState

    /// - Parameter events: called on a private queue, in order, never after ``close()`` returns.
    public init(
        socketPath: String, logger: Logger = Logger(label: "corelocation.agent"),
        events: @escaping @Sendable (AgentEvent) -> Void
    ) {
        state = AgentConnectionState(socketPath: socketPath, backoff: Backoff.daemonReconnection, logger: logger, events: events)
    }

    /// Connects (and keeps reconnecting until closed).
    public func start() { state.start() }

    /// Answers a prompt; nil means the user dismissed it. An answer to a prompt that was withdrawn,
    /// or asked on a connection since lost, is dropped.
    public func answer(_ prompt: AgentPrompt, with answer: PromptAnswer?) { state.answer(prompt, with: answer) }

    /// Closes the connection and stops reconnecting. Safe to call twice.
    public func close() { state.close() }

    deinit { state.close() }
}

/// The working part of an ``AgentConnection``, confined to its loop.
private final class AgentConnectionState: @unchecked Sendable {
    private let loop = RealtimeLoop(label: "corelocation.daemon-client.agent")
    private let gate: DeliveryGate<AgentEvent>
    private let logger: Logger
    private var channel: ReconnectingChannel!

    // Confined to `loop`.
    private var connection: UInt64 = 0
    private var outstanding: [UInt64: AgentPrompt] = [:]

    init(socketPath: String, backoff: Backoff, logger: Logger, events: @escaping @Sendable (AgentEvent) -> Void) {
        gate = DeliveryGate(events)
        self.logger = logger
        channel = ReconnectingChannel(
            socketPath: socketPath, loop: loop, backoff: backoff, logger: logger,
            handlers: .init(
                welcomed: { [weak self] _, _, _ in self?.welcomed() },
                received: { [weak self] message in self?.received(message) },
                down: { [weak self] wasWelcomed in self?.down(wasWelcomed: wasWelcomed) }))
    }

    func start() { loop.execute { self.channel.start() } }

    func answer(_ prompt: AgentPrompt, with answer: PromptAnswer?) {
        loop.execute {
            guard prompt.connection == self.connection, self.outstanding.removeValue(forKey: prompt.id) != nil else {
                self.logger.debug("dropping the answer to a withdrawn prompt", metadata: ["prompt": "\(prompt.id)"])
                return
            }
            self.channel.send(.agentAnswer(id: prompt.id, answer))
        }
    }

    func close() {
        guard !gate.isClosed else { return }
        gate.close()
        loop.execute { self.channel.close() }
    }

    // MARK: In the loop

    private func welcomed() {
        connection += 1
        channel.send(.registerAgent)
        gate.deliver(.registered)
    }

    private func received(_ message: DaemonMessage) {
        switch message {
        case let .agentPrompt(id, request):
            let prompt = AgentPrompt(id: id, request: request, connection: connection)
            outstanding[id] = prompt
            gate.deliver(.prompt(prompt))
        case .agentPromptWithdrawn(let id):
            guard let prompt = outstanding.removeValue(forKey: id) else { return }
            gate.deliver(.withdrawn(prompt))
        case .refused(let reason):
            logger.error("locationd refused this agent", metadata: ["reason": "\(reason)"])
            gate.deliver(.refused(reason))
        default:
            logger.debug("ignoring a message meant for another kind of client", metadata: ["message": "\(message)"])
        }
    }

    private func down(wasWelcomed: Bool) {
        guard wasWelcomed else { return }
        // The daemon that asked is gone; a restarted one asks again (the apps re-send their requests).
        for id in outstanding.keys.sorted() { gate.deliver(.withdrawn(outstanding[id]!)) }
        outstanding.removeAll()
        gate.deliver(.disconnected)
    }
}
