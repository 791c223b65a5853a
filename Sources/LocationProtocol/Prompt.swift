import Foundation

/// What the user is asked: the Linux counterpart of Apple's location alert.
public struct PromptRequest: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The first question: Allow Once / Allow While Using App / Don't Allow, with a Precise toggle.
        case initial
        /// The one-time question after When In Use: Change to Always Allow / Keep Only While Using.
        case upgradeToAlways
        /// Precise location while the app is in use, for an app the user gave approximate location:
        /// Allow Once / Don't Allow. `usageDescription` is the purpose string under `purposeKey` in the
        /// app's `NSLocationTemporaryUsageDescriptionDictionary`.
        case temporaryFullAccuracy(purposeKey: String)
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
public enum PromptAnswer: Sendable, Equatable {
    // Answers to `.initial`.
    case allowOnce(precise: Bool)
    case allowWhileUsing(precise: Bool)
    case dontAllow
    // Answers to `.upgradeToAlways`.
    case changeToAlways
    case keepWhileUsing
    // Answers to `.temporaryFullAccuracy`.
    case allowTemporaryFullAccuracy
    case denyTemporaryFullAccuracy

    /// Whether this answers a prompt of `kind`. An answer to another question changes nothing: an
    /// agent that answers "Change to Always Allow" to the first question must not grant Always.
    public func answers(_ kind: PromptRequest.Kind) -> Bool {
        switch (self, kind) {
        case (.allowOnce, .initial), (.allowWhileUsing, .initial), (.dontAllow, .initial): true
        case (.changeToAlways, .upgradeToAlways), (.keepWhileUsing, .upgradeToAlways): true
        case (.allowTemporaryFullAccuracy, .temporaryFullAccuracy), (.denyTemporaryFullAccuracy, .temporaryFullAccuracy): true
        default: false
        }
    }
}
