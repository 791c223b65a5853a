import Foundation

/// What the user is asked: the Linux counterpart of Apple's location alert.
public struct PromptRequest: Sendable, Equatable, Codable {
    public enum Kind: Sendable, Equatable, Codable {
        /// The first question: Allow Once / Allow While Using App / Don't Allow, with a Precise toggle.
        case initial
        /// The one-time question after When In Use: Change to Always Allow / Keep Only While Using.
        case upgradeToAlways
    }

    public var app: AppIdentity
    public var kind: Kind
    /// The level the app asked for (an initial prompt for `.always` shows the same choices).
    public var level: AuthorizationLevel
    /// The app's Info.plist usage description for this request.
    public var usageDescription: String
    /// The initial position of the Precise toggle (`NSLocationDefaultAccuracyReduced` turns it off).
    public var preciseByDefault: Bool

    public init(
        app: AppIdentity, kind: Kind, level: AuthorizationLevel, usageDescription: String, preciseByDefault: Bool
    ) {
        self.app = app
        self.kind = kind
        self.level = level
        self.usageDescription = usageDescription
        self.preciseByDefault = preciseByDefault
    }
}

/// The user's answer to a ``PromptRequest``.
public enum PromptAnswer: Sendable, Equatable, Codable {
    // Answers to `.initial`.
    case allowOnce(precise: Bool)
    case allowWhileUsing(precise: Bool)
    case dontAllow
    // Answers to `.upgradeToAlways`.
    case changeToAlways
    case keepWhileUsing
}

/// Something that can ask the user (or answer on the user's behalf).
public protocol AuthorizationPrompter: Sendable {
    /// Calls `completion` exactly once, on any thread: the answer, or nil when nobody can answer now
    /// (the request then stays pending and the caller logs how to answer it).
    func prompt(_ request: PromptRequest, completion: @escaping @Sendable (PromptAnswer?) -> Void)
}
