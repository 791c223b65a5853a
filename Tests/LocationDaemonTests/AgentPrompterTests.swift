import Foundation
import LocationCore
import LocationPolicy
import LocationProtocol
import LocationWire
import Logging
import Testing
@testable import LocationDaemon

/// An agent endpoint that records what it was sent.
final class RecordingEndpoint: AgentEndpoint, @unchecked Sendable {
    private let sent = Locked<[DaemonMessage]>([])
    var messages: [DaemonMessage] { sent.withLock { $0 } }
    func send(_ message: DaemonMessage) { sent.withLock { $0.append(message) } }
}

/// Collects prompt answers (each completion must be called exactly once).
final class Answers: @unchecked Sendable {
    private let answers = Locked<[PromptAnswer?]>([])
    var all: [PromptAnswer?] { answers.withLock { $0 } }
    func record(_ answer: PromptAnswer?) { answers.withLock { $0.append(answer) } }
}

@Suite struct AgentPrompterTests {
    static let request = PromptRequest(
        app: AppIdentity(id: "com.example.app", displayName: "App", executablePath: "/opt/app/app"),
        kind: .initial, level: .whenInUse, usageDescription: "Shows where you are.", preciseByDefault: true)

    @Test func withoutAnAgentTheAnswerIsNilAtOnce() {
        let prompter = AgentPrompter(logger: .init(label: "test"))
        let answers = Answers()
        prompter.prompt(Self.request, completion: answers.record)
        #expect(answers.all == [nil])
    }

    @Test func theAgentsAnswerCompletesThePromptOnce() throws {
        let prompter = AgentPrompter(logger: .init(label: "test"))
        let agent = RecordingEndpoint()
        prompter.register(agent)
        let answers = Answers()
        prompter.prompt(Self.request, completion: answers.record)
        guard case let .agentPrompt(id, request)? = agent.messages.last else {
            Issue.record("not asked: \(agent.messages)")
            return
        }
        #expect(request == Self.request)
        #expect(answers.all.isEmpty)
        prompter.answer(id: id, .allowOnce(precise: false), from: agent)
        prompter.answer(id: id, .dontAllow, from: agent)
        #expect(answers.all == [.allowOnce(precise: false)])
    }

    @Test func onlyTheCurrentAgentMayAnswer() {
        let prompter = AgentPrompter(logger: .init(label: "test"))
        let agent = RecordingEndpoint()
        let stranger = RecordingEndpoint()
        prompter.register(agent)
        let answers = Answers()
        prompter.prompt(Self.request, completion: answers.record)
        prompter.answer(id: 1, .allowWhileUsing(precise: true), from: stranger)
        #expect(answers.all.isEmpty)
        prompter.unregister(stranger)
        #expect(prompter.hasAgent, "a stranger cannot unregister the agent")
    }

    @Test func outstandingPromptsCompleteWithNilWhenTheAgentLeaves() {
        let prompter = AgentPrompter(logger: .init(label: "test"))
        let agent = RecordingEndpoint()
        prompter.register(agent)
        let answers = Answers()
        prompter.prompt(Self.request, completion: answers.record)
        prompter.prompt(Self.request, completion: answers.record)
        prompter.unregister(agent)
        #expect(answers.all == [nil, nil])
        #expect(!prompter.hasAgent)
        prompter.answer(id: 1, .dontAllow, from: agent)
        #expect(answers.all == [nil, nil])
    }
}
