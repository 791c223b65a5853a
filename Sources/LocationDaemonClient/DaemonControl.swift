import Foundation
import LocationProtocol
import LocationWire

/// `locationctl`'s settings commands, made through `locationd`: the daemon applies the change for
/// the calling user (it knows who that is from the socket), so every running app sees it at once.
public enum DaemonControl {
    /// How long each step (welcome, answer) may take.
    public static let defaultTimeout: TimeInterval = 5
    /// How long the answer to a settings change or the apps list may take: the daemon reads and
    /// writes the authorization store for it, which waits up to 5 s a statement (twice for a change)
    /// for another process's lock, then says the store is locked.
    public static let storeAnswerTimeout: TimeInterval = 15

    /// Makes a settings change through the daemon.
    /// - Throws: ``DaemonClientError`` when the daemon cannot be reached or refuses;
    ///   `SettingsChangeError` when the daemon could not make the change (its reason, verbatim).
    public static func apply(
        _ change: SettingsChange, socketPath: String, timeout: TimeInterval = defaultTimeout
    ) throws {
        let exchange = try DaemonExchange(socketPath: socketPath, timeout: timeout)
        defer { exchange.close() }
        switch try exchange.request(.settings(change), timeout: max(timeout, storeAnswerTimeout)) {
        case .settingsResult(nil):
            return
        case .settingsResult(let failure?):
            throw failure
        case let other:
            throw DaemonClientError(.protocolViolation, socketPath: socketPath,
                                    detail: "expected the result of a settings change, got \(other)")
        }
    }

    /// The calling user's authorization database, as the daemon holds it.
    /// - Throws: ``DaemonClientError`` when the daemon cannot be reached or refuses;
    ///   `SettingsChangeError` when the daemon cannot read the database.
    public static func listApps(
        socketPath: String, timeout: TimeInterval = defaultTimeout
    ) throws -> AuthorizationDatabase {
        let exchange = try DaemonExchange(socketPath: socketPath, timeout: timeout)
        defer { exchange.close() }
        switch try exchange.request(.listApps, timeout: max(timeout, storeAnswerTimeout)) {
        case .apps(let database):
            return database
        case .appsUnavailable(let failure):
            throw failure
        case let other:
            throw DaemonClientError(.protocolViolation, socketPath: socketPath,
                                    detail: "expected the list of apps, got \(other)")
        }
    }

    /// The calling user's fences, by app, as the daemon holds them (`locationctl regions`).
    /// - Throws: ``DaemonClientError`` when the daemon cannot be reached or refuses.
    public static func listFences(socketPath: String, timeout: TimeInterval = defaultTimeout) throws -> [AppFences] {
        let exchange = try DaemonExchange(socketPath: socketPath, timeout: timeout)
        defer { exchange.close() }
        switch try exchange.request(.listFences, timeout: timeout) {
        case .fences(let fences):
            return fences
        case let other:
            throw DaemonClientError(.protocolViolation, socketPath: socketPath,
                                    detail: "expected the list of fences, got \(other)")
        }
    }
}
