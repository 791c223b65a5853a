import LocationCore
import LocationPolicy
import LocationProtocol
import LocationWire
import Logging

/// Somewhere to send an agent its questions: the agent's connection.
protocol AgentEndpoint: AnyObject, Sendable {
    func send(_ message: DaemonMessage)
}

/// Asks one user's prompt agent (`locationctl agent`): sends `agentPrompt(id, request)` to the agent's
/// connection and completes with its `agentAnswer`.
///
/// With no agent it answers nil at once (the next prompter in the chain is asked). When the agent goes
/// away, its outstanding prompts complete with nil; a newer agent replaces an older one and inherits
/// its outstanding prompts (the older one is told they were withdrawn). Answers for an unknown id,
/// or from a connection that is not the current agent, are ignored.
///
/// Any process of the user may register as the agent, as any of them may grant with `locationctl
/// grant`: the user, not the process, is the trust boundary.
final class AgentPrompter: AuthorizationPrompter {
    private struct Outstanding {
        var request: PromptRequest
        var completion: @Sendable (PromptAnswer?) -> Void
    }

    private struct State {
        var agent: (any AgentEndpoint)?
        var outstanding: [UInt64: Outstanding] = [:]
        var lastID: UInt64 = 0
    }

    private let state = Locked(State())
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    var hasAgent: Bool { state.withLock { $0.agent != nil } }

    func prompt(_ request: PromptRequest, completion: @escaping @Sendable (PromptAnswer?) -> Void) {
        let sent = state.withLock { state -> (any AgentEndpoint, UInt64)? in
            guard let agent = state.agent else { return nil }
            state.lastID += 1
            state.outstanding[state.lastID] = Outstanding(request: request, completion: completion)
            return (agent, state.lastID)
        }
        guard let (agent, id) = sent else { return completion(nil) }
        logger.debug("asking the prompt agent", metadata: ["app": "\(request.app.id)", "prompt": "\(id)"])
        agent.send(.agentPrompt(id: id, request))
    }

    /// Makes `agent` the user's agent; an older agent's outstanding prompts move to it.
    func register(_ agent: any AgentEndpoint) {
        let (previous, moved) = state.withLock { state -> ((any AgentEndpoint)?, [(UInt64, PromptRequest)]) in
            defer { state.agent = agent }
            let previous = state.agent.flatMap { $0 === agent ? nil : $0 }
            return (previous, state.outstanding.map { ($0.key, $0.value.request) }.sorted { $0.0 < $1.0 })
        }
        for (id, request) in moved {
            previous?.send(.agentPromptWithdrawn(id: id))
            agent.send(.agentPrompt(id: id, request))
        }
    }

    /// The agent's connection closed: outstanding prompts complete with nil (nobody will answer them).
    func unregister(_ agent: any AgentEndpoint) {
        let orphaned = state.withLock { state -> [Outstanding] in
            guard state.agent === agent else { return [] }
            state.agent = nil
            defer { state.outstanding.removeAll() }
            return state.outstanding.sorted { $0.key < $1.key }.map(\.value)
        }
        for prompt in orphaned { prompt.completion(nil) }
    }

    func answer(id: UInt64, _ answer: PromptAnswer?, from agent: any AgentEndpoint) {
        let prompt = state.withLock { state -> Outstanding? in
            guard state.agent === agent else { return nil }
            return state.outstanding.removeValue(forKey: id)
        }
        guard let prompt else {
            logger.notice("ignoring an agent answer for no outstanding prompt", metadata: ["prompt": "\(id)"])
            return
        }
        logger.info("prompt answered by the agent", metadata: ["app": "\(prompt.request.app.id)", "answer": "\(answer.map { "\($0)" } ?? "dismissed")"])
        prompt.completion(answer)
    }
}
