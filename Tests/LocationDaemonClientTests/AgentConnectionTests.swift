import Foundation
import LocationCore
import LocationProtocol
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemonClient

/// `locationctl agent`'s session against a (fake) daemon.
@Suite struct AgentConnectionTests {
    static let hello = ClientMessage.hello(version: WireProtocol.version)
    static func request(_ name: String, _ kind: PromptRequest.Kind = .initial) -> PromptRequest {
        PromptRequest(
            app: AppIdentity(id: "com.example.\(name)", displayName: name, executablePath: "/usr/bin/\(name)"),
            kind: kind, level: .whenInUse, usageDescription: "Shows \(name) where you are.", preciseByDefault: true)
    }

    final class Recorder: Sendable {
        private let state = Locked([AgentEvent]())
        var events: [AgentEvent] { state.withLock { $0 } }
        func record(_ event: AgentEvent) { state.withLock { $0.append(event) } }

        var prompts: [AgentPrompt] {
            events.compactMap { event in
                if case .prompt(let prompt) = event { return prompt }
                return nil
            }
        }
    }

    @Test func promptsReachTheHandlerAndAnswersReachTheDaemon() async throws {
        let daemon = try FakeDaemon()
        try daemon.start()
        let recorder = Recorder()
        let session = AgentConnection(socketPath: daemon.socketPath, events: recorder.record)
        defer { session.close() }
        session.start()
        #expect(await eventually { daemon.messages(on: 1) == [Self.hello, .registerAgent] })
        #expect(await eventually { recorder.events == [.registered] })

        try daemon.send(.agentPrompt(id: 7, Self.request("maps")))
        try daemon.send(.agentPrompt(id: 8, Self.request("runner", .upgradeToAlways)))
        #expect(await eventually { recorder.prompts.count == 2 })
        let maps = recorder.prompts[0]
        let runner = recorder.prompts[1]
        #expect(maps.id == 7 && maps.request == Self.request("maps"))
        #expect(runner.request.kind == .upgradeToAlways)

        session.answer(runner, with: .changeToAlways)
        session.answer(maps, with: .allowWhileUsing(precise: false))
        #expect(await eventually { daemon.messages(on: 1).count == 4 })
        #expect(daemon.messages(on: 1).suffix(2) == [
            .agentAnswer(id: 8, .changeToAlways), .agentAnswer(id: 7, .allowWhileUsing(precise: false)),
        ])
        // One answer per prompt.
        session.answer(maps, with: .dontAllow)
        try daemon.send(.agentPrompt(id: 9, Self.request("dismissed")))
        #expect(await eventually { recorder.prompts.count == 3 })
        session.answer(recorder.prompts[2], with: nil)
        #expect(await eventually { daemon.messages(on: 1).count == 5 })
        #expect(daemon.messages(on: 1).last == .agentAnswer(id: 9, nil))
    }

    @Test func withdrawnPromptsAreReportedAndTheirAnswersDropped() async throws {
        let daemon = try FakeDaemon()
        try daemon.start()
        let recorder = Recorder()
        let session = AgentConnection(socketPath: daemon.socketPath, events: recorder.record)
        defer { session.close() }
        session.start()
        #expect(await eventually { daemon.messages(on: 1).count == 2 })
        try daemon.send(.agentPrompt(id: 1, Self.request("maps")))
        try daemon.send(.agentPromptWithdrawn(id: 1))
        try daemon.send(.agentPromptWithdrawn(id: 42))  // unknown: nothing to report
        try daemon.send(.agentPrompt(id: 2, Self.request("runner")))
        #expect(await eventually { recorder.events.count == 4 })
        let maps = recorder.prompts[0]
        #expect(recorder.events == [.registered, .prompt(maps), .withdrawn(maps), .prompt(recorder.prompts[1])])
        session.answer(maps, with: .allowOnce(precise: true))
        session.answer(recorder.prompts[1], with: .dontAllow)
        #expect(await eventually { daemon.messages(on: 1).count == 3 })
        #expect(daemon.messages(on: 1).last == .agentAnswer(id: 2, .dontAllow), "the withdrawn prompt's answer was dropped")
    }

    @Test func aRestartedDaemonWithdrawsOpenPromptsAndTheAgentRegistersAgain() async throws {
        let daemon = try FakeDaemon()
        try daemon.start()
        let recorder = Recorder()
        let session = AgentConnection(socketPath: daemon.socketPath, events: recorder.record)
        defer { session.close() }
        session.start()
        #expect(await eventually { daemon.messages(on: 1).count == 2 })
        try daemon.send(.agentPrompt(id: 1, Self.request("maps")))
        #expect(await eventually { recorder.prompts.count == 1 })
        let old = recorder.prompts[0]

        daemon.stop()
        #expect(await eventually { recorder.events.count == 4 })
        #expect(recorder.events == [.registered, .prompt(old), .withdrawn(old), .disconnected])
        try daemon.start()
        #expect(await eventually { daemon.messages(on: 2) == [Self.hello, .registerAgent] })
        #expect(await eventually { recorder.events.last == .registered })

        // The new daemon numbers its prompts afresh: an old answer must not answer a new prompt.
        try daemon.send(.agentPrompt(id: 1, Self.request("runner")))
        #expect(await eventually { recorder.prompts.count == 2 })
        session.answer(old, with: .allowOnce(precise: true))
        session.answer(recorder.prompts[1], with: .dontAllow)
        #expect(await eventually { daemon.messages(on: 2).count == 3 })
        #expect(daemon.messages(on: 2).last == .agentAnswer(id: 1, .dontAllow))
    }

    @Test func closeEndsTheSessionForGood() async throws {
        let daemon = try FakeDaemon()
        try daemon.start()
        let recorder = Recorder()
        let session = AgentConnection(socketPath: daemon.socketPath, events: recorder.record)
        session.start()
        #expect(await eventually { recorder.events == [.registered] })
        session.close()
        session.close()
        #expect(await eventually { daemon.isClosed(1) })
        daemon.stop()
        try daemon.start()
        #expect(await !eventually(timeout: .seconds(1.5)) { daemon.connectionCount > 1 })
        #expect(recorder.events == [.registered])
    }
}
