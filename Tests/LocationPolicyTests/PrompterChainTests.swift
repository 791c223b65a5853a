import Foundation
import LocationCore
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import Testing

/// A prompter with a fixed answer that records being asked; it answers on another thread.
final class ScriptedPrompter: AuthorizationPrompter {
    let answer: PromptAnswer?
    let completions: Int
    private let asked = Locked(0)

    init(_ answer: PromptAnswer?, completions: Int = 1) {
        self.answer = answer
        self.completions = completions
    }

    var timesAsked: Int { asked.withLock { $0 } }

    func prompt(_ request: PromptRequest, completion: @escaping @Sendable (PromptAnswer?) -> Void) {
        asked.withLock { $0 += 1 }
        let answer = answer, completions = completions
        DispatchQueue.global().async {
            for _ in 0..<completions { completion(answer) }
        }
    }
}

/// Asks and collects every completion call, waiting a little for late (duplicate) calls.
func answers(of prompter: some AuthorizationPrompter, to request: PromptRequest) async -> [PromptAnswer?] {
    let calls = Locked([PromptAnswer?]())
    prompter.prompt(request) { answer in calls.withLock { $0.append(answer) } }
    _ = await waitUntil(timeout: 2) { calls.withLock { !$0.isEmpty } }
    try? await Task.sleep(nanoseconds: 50_000_000)
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
