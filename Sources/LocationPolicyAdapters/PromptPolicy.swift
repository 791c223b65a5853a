import Foundation
import LocationCore
import LocationProtocol

/// Why a prompt policy could not be used. A policy with an error never grants anything.
public struct PromptPolicyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the bad policy came from: `CORELOCATION_PROMPT_POLICY` or a file path.
    public var source: String
    public var reason: String

    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    public var description: String { "prompt policy \(source): \(reason)" }
}

/// One answer a policy gives on the user's behalf: `allow`, `allow-once`, `always` or `deny`, optionally
/// followed by `,precise` or `,approximate`.
///
/// A request for temporary full accuracy (`requestTemporaryFullAccuracyAuthorization`) is allowed by
/// `allow`, `allow-once` and `always` — unless the decision says `,approximate`, the user's explicit
/// wish that the app see approximate location only — and denied by `deny`.
public struct PromptDecision: Sendable, Equatable, CustomStringConvertible {
    public enum Action: String, Sendable, CaseIterable {
        /// Allow While Using App; keeps When In Use when asked to upgrade.
        case allow
        /// Allow Once; keeps When In Use when asked to upgrade.
        case allowOnce = "allow-once"
        /// Allow While Using App, then Change to Always Allow when asked to upgrade.
        case always
        /// Don't Allow; Keep Only While Using when asked to upgrade.
        case deny
    }

    public enum Precision: String, Sendable, CaseIterable {
        case precise
        case approximate
    }

    public var action: Action
    /// nil: the app's default (`PromptRequest.preciseByDefault`).
    public var precision: Precision?

    public init(action: Action, precision: Precision? = nil) {
        self.action = action
        self.precision = precision
    }

    /// Parses `allow`, `allow-once`, `always`, `deny`, each optionally followed by `,precise` or
    /// `,approximate` (case and spaces around the words do not matter).
    /// - Throws: ``PromptPolicyError`` naming `source` for anything else.
    public init(parsing text: String, source: String) throws {
        let words = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
        let actions = Action.allCases.map(\.rawValue).joined(separator: ", ")
        guard let first = words.first, let action = Action(rawValue: first) else {
            throw PromptPolicyError(
                source: source, reason: "unknown decision \"\(text)\" (expected one of \(actions), optionally followed by ,precise or ,approximate)")
        }
        var precision: Precision?
        switch words.count {
        case 1:
            break
        case 2:
            guard let parsed = Precision(rawValue: words[1]) else {
                throw PromptPolicyError(
                    source: source, reason: "unknown precision \"\(words[1])\" in \"\(text)\" (expected precise or approximate)")
            }
            precision = parsed
        default:
            throw PromptPolicyError(source: source, reason: "too many parts in \"\(text)\" (expected e.g. allow,approximate)")
        }
        self.init(action: action, precision: precision)
    }

    public var description: String {
        precision.map { "\(action.rawValue),\($0.rawValue)" } ?? action.rawValue
    }

    /// The answer this decision gives to `request`.
    public func answer(to request: PromptRequest) -> PromptAnswer {
        let precise = precision.map { $0 == .precise } ?? request.preciseByDefault
        switch (request.kind, action) {
        case (.initial, .allow), (.initial, .always): return .allowWhileUsing(precise: precise)
        case (.initial, .allowOnce): return .allowOnce(precise: precise)
        case (.initial, .deny): return .dontAllow
        case (.upgradeToAlways, .always): return .changeToAlways
        case (.upgradeToAlways, .allow), (.upgradeToAlways, .allowOnce), (.upgradeToAlways, .deny): return .keepWhileUsing
        case (.temporaryFullAccuracy, .deny): return .denyTemporaryFullAccuracy
        case (.temporaryFullAccuracy, .allow), (.temporaryFullAccuracy, .allowOnce), (.temporaryFullAccuracy, .always):
            return precision == .approximate ? .denyTemporaryFullAccuracy : .allowTemporaryFullAccuracy
        }
    }
}

/// A prompt policy file: a default decision and decisions per app id.
///
/// ```json
/// {
///   "default": "deny",
///   "apps": {
///     "com.example.weather": "allow,approximate",
///     "/usr/local/bin/tracker": "always"
///   }
/// }
/// ```
/// Both keys are optional; `comment` is allowed and ignored. Any other key, a value that is not a string,
/// or an unknown decision makes the whole file invalid (a misspelt `"apps"` must not let `"default"`
/// answer for the apps it was meant to deny).
public struct PromptPolicy: Sendable, Equatable {
    /// Names one decision for every app (and beats the files).
    public static let environmentVariable = "CORELOCATION_PROMPT_POLICY"
    /// `/etc/corelocation/prompt-policy.json`.
    public static let systemPolicyFile = URL(fileURLWithPath: "/etc/corelocation/prompt-policy.json")

    public var defaultDecision: PromptDecision?
    /// Keyed by `AppIdentity.id`.
    public var appDecisions: [String: PromptDecision]

    public init(defaultDecision: PromptDecision? = nil, appDecisions: [String: PromptDecision] = [:]) {
        self.defaultDecision = defaultDecision
        self.appDecisions = appDecisions
    }

    /// `$XDG_CONFIG_HOME/corelocation/prompt-policy.json`, else `~/.config/corelocation/prompt-policy.json`.
    public static func userPolicyFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectories.configHome(environment: environment)
            .appendingPathComponent("corelocation", isDirectory: true)
            .appendingPathComponent("prompt-policy.json")
    }

    /// Parses a policy file's contents. - Throws: ``PromptPolicyError`` naming `source`.
    public init(jsonData: Data, source: String) throws {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: jsonData)
        } catch {
            throw PromptPolicyError(source: source, reason: "not valid JSON: \((error as NSError).localizedDescription)")
        }
        guard let object = root as? [String: Any] else {
            throw PromptPolicyError(source: source, reason: "the top level must be a JSON object")
        }
        let unknown = Set(object.keys).subtracting(["default", "apps", "comment"])
        guard unknown.isEmpty else {
            throw PromptPolicyError(
                source: source, reason: "unknown key(s) \(unknown.sorted().joined(separator: ", ")) (expected default, apps, comment)")
        }
        var policy = PromptPolicy()
        if let value = object["default"] {
            guard let text = value as? String else {
                throw PromptPolicyError(source: source, reason: "\"default\" must be a string such as \"deny\"")
            }
            policy.defaultDecision = try PromptDecision(parsing: text, source: source)
        }
        if let value = object["apps"] {
            guard let apps = value as? [String: Any] else {
                throw PromptPolicyError(source: source, reason: "\"apps\" must be an object mapping app ids to decisions")
            }
            for (app, value) in apps {
                guard let text = value as? String else {
                    throw PromptPolicyError(source: source, reason: "apps[\"\(app)\"] must be a string such as \"allow\"")
                }
                policy.appDecisions[app] = try PromptDecision(parsing: text, source: "\(source) apps[\"\(app)\"]")
            }
        }
        self = policy
    }

    /// The decision for an app: its own, else the default, else nil.
    public func decision(forApp id: String) -> PromptDecision? {
        appDecisions[id] ?? defaultDecision
    }
}
