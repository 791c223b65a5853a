// TEMPORARY: the prompt types are being written in the policy worktree; this file is replaced on merge.
import Foundation

public struct PromptRequest: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case initial; case upgradeToAlways }
    public var app: AppIdentity
    public var kind: Kind
    public var level: AuthorizationLevel
    public var usageDescription: String
    public var preciseByDefault: Bool
    public init(app: AppIdentity, kind: Kind, level: AuthorizationLevel, usageDescription: String, preciseByDefault: Bool) {
        self.app = app; self.kind = kind; self.level = level
        self.usageDescription = usageDescription; self.preciseByDefault = preciseByDefault
    }
}

public enum PromptAnswer: Sendable, Equatable, Codable {
    case allowOnce(precise: Bool), allowWhileUsing(precise: Bool), dontAllow
    case changeToAlways, keepWhileUsing
}

public protocol AuthorizationPrompter: Sendable {
    func prompt(_ request: PromptRequest, completion: @escaping @Sendable (PromptAnswer?) -> Void)
}

public struct StoreChangeToken: Equatable, Sendable {
    public var value: [UInt64]
    public init(_ value: [UInt64]) { self.value = value }
}

public protocol AuthorizationStore: AnyObject, Sendable {
    func read() throws -> AuthorizationDatabase
    @discardableResult
    func update(_ body: (inout AuthorizationDatabase) throws -> Void) throws -> AuthorizationDatabase
    func changeToken() -> StoreChangeToken
}
