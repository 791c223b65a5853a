import Foundation
import LocationCore
import LocationPolicy
import LocationProtocol
import Logging

/// Asks each prompter in turn and returns the first answer that is not nil; nil when none answers
/// (an empty chain answers nil at once).
public struct PrompterChain: AuthorizationPrompter {
    public let prompters: [any AuthorizationPrompter]
    private let logger: Logger

    public init(_ prompters: [any AuthorizationPrompter], logger: Logger = Logger(label: "corelocation.policy")) {
        self.prompters = prompters
        self.logger = logger
    }

    /// True when no prompter is configured: every request gets nil at once.
    public var isEmpty: Bool { prompters.isEmpty }

    public func prompt(_ request: PromptRequest, completion: @escaping @Sendable (PromptAnswer?) -> Void) {
        Self.ask(prompters[...], request: request, logger: logger, completion: completion)
    }

    private static func ask(
        _ remaining: ArraySlice<any AuthorizationPrompter>, request: PromptRequest, logger: Logger,
        completion: @escaping @Sendable (PromptAnswer?) -> Void
    ) {
        guard let first = remaining.first else {
            completion(nil)
            return
        }
        let rest = remaining.dropFirst()
        let called = Locked(false)
        first.prompt(request) { answer in
            // Protects the exactly-once promise against a prompter that breaks it.
            let again = called.withLock { called in
                defer { called = true }
                return called
            }
            guard !again else {
                logger.error("a prompter called its completion twice; ignoring the second call",
                             metadata: ["prompter": "\(type(of: first))"])
                return
            }
            if let answer {
                completion(answer)
            } else {
                ask(rest, request: request, logger: logger, completion: completion)
            }
        }
    }
}

extension PrompterChain {
    /// The prompter a process uses unless told otherwise:
    /// 1. the headless ``PolicyPrompter``, when a policy is configured (the environment variable is set or
    ///    a policy file exists when this is called);
    /// 2. the ``TerminalPrompter`` of the controlling terminal, when one is attached;
    /// 3. nothing: the chain is empty and answers nil, and the caller logs how to answer.
    ///
    /// An answer of nil from the policy (no decision for this app, or a malformed policy) falls through
    /// to the terminal: a malformed policy never grants, but a person at the terminal still can.
    public static func defaultPrompter(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        systemPolicyFile: URL = PromptPolicy.systemPolicyFile,
        terminal: @autoclosure () -> TerminalPrompter? = TerminalPrompter.controllingTerminal(),
        logger: Logger = Logger(label: "corelocation.policy")
    ) -> PrompterChain {
        var prompters: [any AuthorizationPrompter] = []
        let policy = PolicyPrompter(environment: environment, systemPolicyFile: systemPolicyFile, logger: logger)
        if policy.isConfigured {
            prompters.append(policy)
        }
        if let terminal = terminal() {
            prompters.append(terminal)
        }
        return PrompterChain(prompters, logger: logger)
    }
}
