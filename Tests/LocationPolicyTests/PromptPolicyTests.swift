import Foundation
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import TestSupport
import Testing

@Suite struct PromptDecisionTests {
    @Test(arguments: [
        ("allow", PromptDecision(action: .allow)),
        ("allow-once", PromptDecision(action: .allowOnce)),
        ("always", PromptDecision(action: .always)),
        ("deny", PromptDecision(action: .deny)),
        ("allow,approximate", PromptDecision(action: .allow, precision: .approximate)),
        ("allow-once,precise", PromptDecision(action: .allowOnce, precision: .precise)),
        (" Always , PRECISE ", PromptDecision(action: .always, precision: .precise)),
        ("deny,approximate", PromptDecision(action: .deny, precision: .approximate)),
    ])
    func parses(text: String, expected: PromptDecision) throws {
        #expect(try PromptDecision(parsing: text, source: "test") == expected)
    }

    @Test(arguments: ["", "yes", "allowed", "allow once", "allow,fuzzy", "allow,", ",precise",
                      "allow,precise,approximate", "allow;precise", "grant"])
    func rejects(text: String) {
        let error = #expect(throws: PromptPolicyError.self) { try PromptDecision(parsing: text, source: "the test") }
        #expect(error?.source == "the test")
    }

    static let mapping: [(String, PromptRequest.Kind, Bool, PromptAnswer)] = [
        ("allow", .initial, true, .allowWhileUsing(precise: true)),
        ("allow", .initial, false, .allowWhileUsing(precise: false)),
        ("allow,precise", .initial, false, .allowWhileUsing(precise: true)),
        ("allow,approximate", .initial, true, .allowWhileUsing(precise: false)),
        ("allow-once", .initial, true, .allowOnce(precise: true)),
        ("allow-once,approximate", .initial, true, .allowOnce(precise: false)),
        ("always", .initial, true, .allowWhileUsing(precise: true)),
        ("always,approximate", .initial, true, .allowWhileUsing(precise: false)),
        ("deny", .initial, true, .dontAllow),
        ("always", .upgradeToAlways, true, .changeToAlways),
        ("deny", .upgradeToAlways, true, .keepWhileUsing),
        ("allow", .upgradeToAlways, true, .keepWhileUsing),
        ("allow-once", .upgradeToAlways, true, .keepWhileUsing),
        // Temporary full accuracy: allowed unless the decision denies or says approximate.
        ("allow", .temporaryFullAccuracy(purposeKey: "Navigation"), false, .allowTemporaryFullAccuracy),
        ("allow-once", .temporaryFullAccuracy(purposeKey: "Navigation"), false, .allowTemporaryFullAccuracy),
        ("always,precise", .temporaryFullAccuracy(purposeKey: "Navigation"), false, .allowTemporaryFullAccuracy),
        ("allow,approximate", .temporaryFullAccuracy(purposeKey: "Navigation"), false, .denyTemporaryFullAccuracy),
        ("deny", .temporaryFullAccuracy(purposeKey: "Navigation"), false, .denyTemporaryFullAccuracy),
    ]

    @Test(arguments: mapping)
    func answers(text: String, kind: PromptRequest.Kind, preciseByDefault: Bool, expected: PromptAnswer) throws {
        let decision = try PromptDecision(parsing: text, source: "test")
        #expect(decision.answer(to: request(kind, preciseByDefault: preciseByDefault)) == expected)
    }
}

@Suite struct PolicyPrompterTests {
    /// A user and a system policy file in a temporary directory, and a prompter reading them.
    struct Setup {
        let root: URL
        var userFile: URL { root.appendingPathComponent("config/corelocation/prompt-policy.json") }
        var systemFile: URL { root.appendingPathComponent("etc/corelocation/prompt-policy.json") }

        func write(_ json: String, to file: URL) throws {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(json.utf8).write(to: file)
        }

        func prompter(_ environment: [String: String] = [:]) -> PolicyPrompter {
            var environment = environment
            environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
            return PolicyPrompter(environment: environment, systemPolicyFile: systemFile)
        }
    }

    func withSetup(_ body: (Setup) throws -> Void) throws {
        try withTemporaryDirectory { root in try body(Setup(root: root)) }
    }

    let weather = identity("com.example.weather")
    let tracker = identity("/usr/local/bin/tracker", name: "tracker")

    @Test func noPolicyAnswersNil() async throws {
        try withSetup { setup in
            let prompter = setup.prompter()
            #expect(!prompter.isConfigured)
            #expect(prompter.userPolicyFile == setup.userFile)
            #expect(prompter.resolve(request()) == .noPolicy)
        }
    }

    @Test func environmentAnswersForEveryApp() throws {
        try withSetup { setup in
            let prompter = setup.prompter(["CORELOCATION_PROMPT_POLICY": "allow,approximate"])
            #expect(prompter.isConfigured)
            #expect(prompter.resolve(request(app: weather)).answer == .allowWhileUsing(precise: false))
            #expect(prompter.resolve(request(app: tracker)).answer == .allowWhileUsing(precise: false))
            #expect(prompter.resolve(request(.upgradeToAlways)).answer == .keepWhileUsing)
        }
    }

    @Test func environmentBeatsFiles() throws {
        try withSetup { setup in
            try setup.write(#"{"default": "allow", "apps": {"com.example.weather": "always"}}"#, to: setup.userFile)
            try setup.write(#"{"default": "allow"}"#, to: setup.systemFile)
            let resolution = setup.prompter(["CORELOCATION_PROMPT_POLICY": "deny"]).resolve(request(app: weather))
            #expect(resolution == .answered(.dontAllow, decision: PromptDecision(action: .deny), source: .environment))
        }
    }

    @Test func emptyEnvironmentVariableIsUnset() throws {
        try withSetup { setup in
            try setup.write(#"{"default": "deny"}"#, to: setup.userFile)
            #expect(setup.prompter(["CORELOCATION_PROMPT_POLICY": ""]).resolve(request()).answer == .dontAllow)
        }
    }

    @Test func perAppBeatsDefault() throws {
        try withSetup { setup in
            try setup.write("""
                {
                  "comment": "CI runners",
                  "default": "deny",
                  "apps": {
                    "com.example.weather": "allow-once,approximate",
                    "/usr/local/bin/tracker": "always"
                  }
                }
                """, to: setup.userFile)
            let prompter = setup.prompter()
            #expect(prompter.isConfigured)
            #expect(prompter.resolve(request(app: weather)).answer == .allowOnce(precise: false))
            #expect(prompter.resolve(request(app: tracker)).answer == .allowWhileUsing(precise: true))
            #expect(prompter.resolve(request(.upgradeToAlways, app: tracker)).answer == .changeToAlways)
            #expect(prompter.resolve(request(app: identity("com.example.other"))).answer == .dontAllow)
            #expect(prompter.resolve(request(app: weather)) == .answered(
                .allowOnce(precise: false), decision: PromptDecision(action: .allowOnce, precision: .approximate),
                source: .file(setup.userFile)))
        }
    }

    @Test func userFileBeatsSystemFileButFallsThroughWhenSilent() throws {
        try withSetup { setup in
            try setup.write(#"{"apps": {"com.example.weather": "deny"}}"#, to: setup.userFile)
            try setup.write(#"{"default": "allow", "apps": {"com.example.weather": "always"}}"#, to: setup.systemFile)
            let prompter = setup.prompter()
            #expect(prompter.resolve(request(app: weather)).answer == .dontAllow)
            // The user's file has nothing for the tracker (and no default): the system file decides.
            #expect(prompter.resolve(request(app: tracker)) == .answered(
                .allowWhileUsing(precise: true), decision: PromptDecision(action: .allow), source: .file(setup.systemFile)))
        }
    }

    @Test func systemFileAloneIsAPolicy() throws {
        try withSetup { setup in
            try setup.write(#"{"default": "allow,precise"}"#, to: setup.systemFile)
            let prompter = setup.prompter()
            #expect(prompter.isConfigured)
            #expect(prompter.resolve(request(preciseByDefault: false)).answer == .allowWhileUsing(precise: true))
        }
    }

    static let malformedFiles: [String] = [
        "{ not json",
        "[\"allow\"]",
        #"{"default": "maybe"}"#,
        #"{"default": true}"#,
        #"{"defualt": "deny", "apps": {}}"#,
        #"{"default": "deny", "app": {"com.example.weather": "deny"}}"#,
        #"{"apps": ["com.example.weather"]}"#,
        #"{"apps": {"com.example.weather": "allow,sometimes"}}"#,
        #"{"apps": {"com.example.other": 1}}"#,
        "",
    ]

    @Test(arguments: malformedFiles)
    func malformedUserFileNeverGrants(json: String) throws {
        try withSetup { setup in
            try setup.write(json, to: setup.userFile)
            // Even with a permissive system policy behind it.
            try setup.write(#"{"default": "always"}"#, to: setup.systemFile)
            let prompter = setup.prompter()
            guard case .invalid(let error) = prompter.resolve(request(app: weather)) else {
                Issue.record("expected .invalid for \(json)")
                return
            }
            #expect(error.source.hasPrefix(setup.userFile.path))
            #expect(!error.reason.isEmpty)
        }
    }

    @Test func malformedSystemFileNeverGrants() throws {
        try withSetup { setup in
            try setup.write(#"{"default": "alow"}"#, to: setup.systemFile)
            #expect(setup.prompter().resolve(request()).answer == nil)
            try setup.write(#"{"default": "deny"}"#, to: setup.userFile)
            #expect(setup.prompter().resolve(request()).answer == .dontAllow)
        }
    }

    @Test func malformedEnvironmentNeverGrants() throws {
        try withSetup { setup in
            try setup.write(#"{"default": "allow"}"#, to: setup.userFile)
            let resolution = setup.prompter(["CORELOCATION_PROMPT_POLICY": "yes please"]).resolve(request())
            guard case .invalid(let error) = resolution else {
                Issue.record("expected .invalid, got \(resolution)")
                return
            }
            #expect(error.source == "CORELOCATION_PROMPT_POLICY")
        }
    }

    @Test func unreadableFileNeverGrants() throws {
        try withSetup { setup in
            try FileManager.default.createDirectory(at: setup.userFile, withIntermediateDirectories: true)
            try setup.write(#"{"default": "allow"}"#, to: setup.systemFile)
            #expect(setup.prompter().resolve(request()).answer == nil)
        }
    }

    @Test func promptCallsTheCompletionWithTheAnswer() async throws {
        let prompter = PolicyPrompter(
            environment: ["CORELOCATION_PROMPT_POLICY": "allow-once", "HOME": "/nonexistent"],
            systemPolicyFile: URL(fileURLWithPath: "/nonexistent/policy.json"))
        let answer = await withCheckedContinuation { continuation in
            prompter.prompt(request()) { continuation.resume(returning: $0) }
        }
        #expect(answer == .allowOnce(precise: true))

        let malformed = PolicyPrompter(
            environment: ["CORELOCATION_PROMPT_POLICY": "allow-twice", "HOME": "/nonexistent"],
            systemPolicyFile: URL(fileURLWithPath: "/nonexistent/policy.json"))
        let none = await withCheckedContinuation { continuation in
            malformed.prompt(request()) { continuation.resume(returning: $0) }
        }
        #expect(none == nil)
    }

    @Test(arguments: [
        (["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/u"], "/x/config/corelocation/prompt-policy.json"),
        (["XDG_CONFIG_HOME": "relative", "HOME": "/home/u"], "/home/u/.config/corelocation/prompt-policy.json"),
        (["HOME": "/home/u"], "/home/u/.config/corelocation/prompt-policy.json"),
    ] as [([String: String], String)])
    func userPolicyFileLocation(environment: [String: String], expected: String) {
        #expect(PromptPolicy.userPolicyFile(environment: environment).path == expected)
        #expect(PolicyPrompter(environment: environment).userPolicyFile.path == expected)
    }

    @Test func systemPolicyFileLocation() {
        #expect(PromptPolicy.systemPolicyFile.path == "/etc/corelocation/prompt-policy.json")
    }
}
