import Foundation
import LocationPolicy
import LocationProtocol
import Logging

/// Answers prompts without a human, from a configured policy, for headless machines, CI and kiosks.
///
/// Sources, first match wins:
/// 1. `CORELOCATION_PROMPT_POLICY` (one decision for every app);
/// 2. the user's policy file, `$XDG_CONFIG_HOME/corelocation/prompt-policy.json`;
/// 3. the system's, `/etc/corelocation/prompt-policy.json`.
///
/// A file matches when it has a decision for the app or a default. A missing file is skipped. A malformed
/// source (bad JSON, an unknown word, an unreadable file) stops the search: it is logged as an error and
/// the answer is nil; it never grants. Sources are read at every prompt, so edits apply at once.
public struct PolicyPrompter: AuthorizationPrompter {
    /// Where a decision came from.
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        case environment
        case file(URL)

        public var description: String {
            switch self {
            case .environment: PromptPolicy.environmentVariable
            case .file(let url): url.path
            }
        }
    }

    /// The outcome of consulting the policy for one request.
    public enum Resolution: Sendable, Equatable {
        case answered(PromptAnswer, decision: PromptDecision, source: Source)
        /// No source has a decision for this app.
        case noPolicy
        /// A source is malformed; nothing is answered.
        case invalid(PromptPolicyError)

        public var answer: PromptAnswer? {
            if case .answered(let answer, _, _) = self { return answer }
            return nil
        }
    }

    public let environmentValue: String?
    public let userPolicyFile: URL
    public let systemPolicyFile: URL
    private let logger: Logger

    /// - Parameters:
    ///   - environment: read for `CORELOCATION_PROMPT_POLICY`, `XDG_CONFIG_HOME` and `HOME`.
    ///   - userPolicyFile: overrides the user's policy file location.
    ///   - systemPolicyFile: overrides `/etc/corelocation/prompt-policy.json`.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        userPolicyFile: URL? = nil,
        systemPolicyFile: URL = PromptPolicy.systemPolicyFile,
        logger: Logger = Logger(label: "corelocation.policy")
    ) {
        let value = environment[PromptPolicy.environmentVariable]
        environmentValue = (value?.isEmpty ?? true) ? nil : value
        self.userPolicyFile = userPolicyFile ?? PromptPolicy.userPolicyFile(environment: environment)
        self.systemPolicyFile = systemPolicyFile
        self.logger = logger
    }

    /// True when the environment variable is set or a policy file exists.
    public var isConfigured: Bool {
        environmentValue != nil
            || FileManager.default.fileExists(atPath: userPolicyFile.path)
            || FileManager.default.fileExists(atPath: systemPolicyFile.path)
    }

    /// Consults the sources for `request`.
    public func resolve(_ request: PromptRequest) -> Resolution {
        do {
            if let value = environmentValue {
                let decision = try PromptDecision(parsing: value, source: PromptPolicy.environmentVariable)
                return .answered(decision.answer(to: request), decision: decision, source: .environment)
            }
            for file in [userPolicyFile, systemPolicyFile] {
                guard let policy = try Self.loadPolicy(file) else { continue }
                if let decision = policy.decision(forApp: request.app.id) {
                    return .answered(decision.answer(to: request), decision: decision, source: .file(file))
                }
            }
            return .noPolicy
        } catch let error as PromptPolicyError {
            return .invalid(error)
        } catch {
            return .invalid(PromptPolicyError(source: "?", reason: "\(error)"))
        }
    }

    /// Answers at once, on the caller's thread (reading at most two small files); logs every decision it
    /// makes on the user's behalf at `info`, and a malformed policy at `error`.
    public func prompt(_ request: PromptRequest, completion: @escaping @Sendable (PromptAnswer?) -> Void) {
        let resolution = resolve(request)
        switch resolution {
        case let .answered(answer, decision, source):
            logger.info(
                "location prompt answered by policy",
                metadata: ["app": "\(request.app.id)", "decision": "\(decision)", "answer": "\(answer)", "source": "\(source)"])
        case .noPolicy:
            logger.debug("no prompt policy for app", metadata: ["app": "\(request.app.id)"])
        case .invalid(let error):
            logger.error(
                "prompt policy is malformed; not answering on the user's behalf",
                metadata: ["app": "\(request.app.id)", "source": "\(error.source)", "reason": "\(error.reason)"])
        }
        completion(resolution.answer)
    }

    /// nil when the file does not exist.
    private static func loadPolicy(_ url: URL) throws -> PromptPolicy? {
        let data: Data?
        do {
            data = try POSIXFile.readAll(path: url.path)
        } catch {
            throw PromptPolicyError(source: url.path, reason: "cannot be read: \(error.reason)")
        }
        guard let data else { return nil }
        return try PromptPolicy(jsonData: data, source: url.path)
    }
}
