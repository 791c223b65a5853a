import Foundation
import LocationCore
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import TestSupport
import Testing

/// A prompter with a fixed answer that records being asked; it answers on another thread.
final class ScriptedPrompter: AuthorizationPrompter {
    let answer: PromptAnswer?
    let completions: Int
    private let state = Locked((asked: 0, answered: 0))

    init(_ answer: PromptAnswer?, completions: Int = 1) {
        self.answer = answer
        self.completions = completions
    }

    var timesAsked: Int { state.withLock { $0.asked } }
    /// Whether every prompt it was asked has had all its completion calls made.
    var isDone: Bool { state.withLock { $0.asked == $0.answered } }

    func prompt(_ request: PromptRequest, completion: @escaping @Sendable (PromptAnswer?) -> Void) {
        state.withLock { $0.asked += 1 }
        let answer = answer, completions = completions, state = state
        DispatchQueue.global().async {
            for _ in 0..<completions { completion(answer) }
            state.withLock { $0.answered += 1 }
        }
    }
}

/// Asks and collects every completion call. A chain passes its prompters' calls on synchronously, so
/// once every scripted prompter in it is done, any duplicate call has arrived too.
func answers(of prompter: some AuthorizationPrompter, to request: PromptRequest) async -> [PromptAnswer?] {
    let calls = Locked([PromptAnswer?]())
    prompter.prompt(request) { answer in calls.withLock { $0.append(answer) } }
    let scripted = ((prompter as? PrompterChain)?.prompters ?? [prompter]).compactMap { $0 as? ScriptedPrompter }
    #expect(await eventually { !calls.withLock { $0.isEmpty } && scripted.allSatisfy(\.isDone) })
    return calls.withLock { $0 }
}

@Suite struct PrompterChainTests {
    @Test func firstNonNilAnswerWins() async {
        let silent = ScriptedPrompter(nil)
        let allow = ScriptedPrompter(.allowWhileUsing(precise: true))
        let deny = ScriptedPrompter(.dontAllow)
        let chain = PrompterChain([silent, allow, deny])
        #expect(await answers(of: chain, to: request()) == [.allowWhileUsing(precise: true)])
        #expect(silent.timesAsked == 1)
        #expect(allow.timesAsked == 1)
        #expect(deny.timesAsked == 0)
    }

    @Test func nobodyAnsweringGivesNil() async {
        #expect(await answers(of: PrompterChain([ScriptedPrompter(nil), ScriptedPrompter(nil)]), to: request()) == [nil])
        let empty = PrompterChain([])
        #expect(empty.isEmpty)
        #expect(await answers(of: empty, to: request()) == [nil])
    }

    @Test func completionRunsOnceEvenIfAPrompterMisbehaves() async {
        let chain = PrompterChain([ScriptedPrompter(nil, completions: 2), ScriptedPrompter(.dontAllow, completions: 3)])
        #expect(await answers(of: chain, to: request()) == [.dontAllow])
    }

    @Test func defaultPrompterUsesThePolicyWhenConfigured() async throws {
        try await withTemporaryDirectory { root in
            let environment = ["CORELOCATION_PROMPT_POLICY": "deny", "XDG_CONFIG_HOME": root.path]
            let chain = PrompterChain.defaultPrompter(
                environment: environment, systemPolicyFile: root.appendingPathComponent("none.json"), terminal: nil)
            #expect(chain.prompters.count == 1)
            #expect(chain.prompters.first is PolicyPrompter)
            #expect(await answers(of: chain, to: request()) == [.dontAllow])
        }
    }

    @Test func defaultPrompterWithNothingConfiguredIsEmpty() async throws {
        try await withTemporaryDirectory { root in
            let chain = PrompterChain.defaultPrompter(
                environment: ["XDG_CONFIG_HOME": root.path], systemPolicyFile: root.appendingPathComponent("none.json"),
                terminal: nil)
            #expect(chain.isEmpty)
            #expect(await answers(of: chain, to: request()) == [nil])
        }
    }

    @Test func defaultPrompterAsksTheTerminalAfterThePolicy() async throws {
        try await withTemporaryDirectory { root in
            // The policy decides for one app only; the terminal answers for the rest.
            let policyFile = root.appendingPathComponent("corelocation/prompt-policy.json")
            try FileManager.default.createDirectory(at: policyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(#"{"apps": {"com.example.ci": "allow"}}"#.utf8).write(to: policyFile)
            let terminal = PipeTerminal()
            let chain = PrompterChain.defaultPrompter(
                environment: ["XDG_CONFIG_HOME": root.path], systemPolicyFile: root.appendingPathComponent("none.json"),
                terminal: terminal.prompter)
            #expect(chain.prompters.count == 2)
            #expect(chain.prompters.last is TerminalPrompter)

            #expect(await answers(of: chain, to: request(app: identity("com.example.ci"))) == [.allowWhileUsing(precise: true)])
            terminal.type("d\n")
            #expect(await answers(of: chain, to: request(app: identity("com.example.other"))) == [.dontAllow])
        }
    }
}
