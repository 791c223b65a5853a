import ArgumentParser
import Foundation
import LocationDaemonClient
import LocationPolicy
import LocationProtocol

/// Where the settings commands make their change: through `locationd` when one runs (it applies
/// the change for the calling user, and every running app sees it at once), else straight in the
/// store. `--state-dir` always means the store; `--socket` always means that daemon.
enum SettingsTarget {
    case daemon(socketPath: String)
    case store(StoreOptions)

    init(
        store: StoreOptions, daemon: DaemonOptions,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        if store.stateDir != nil {
            guard daemon.socket == nil else {
                throw ValidationError("--state-dir edits the store directly; --socket goes through a daemon: pass one of them")
            }
            self = .store(store)
        } else if let socketPath = daemon.discoveredSocket(environment: environment) {
            self = .daemon(socketPath: socketPath)
        } else {
            self = .store(store)
        }
    }

    /// Makes the change and prints what changed (the same line either way).
    func apply(_ change: SettingsChange) throws {
        switch self {
        case .store(let store):
            try store.apply(change)
        case .daemon(let socketPath):
            try Self.failingClearly { try DaemonControl.apply(change, socketPath: socketPath) }
            print(change.summary)
        }
    }

    /// The user's authorization database.
    func read() throws -> AuthorizationDatabase {
        switch self {
        case .store(let store): try store.read()
        case .daemon(let socketPath): try Self.failingClearly { try DaemonControl.listApps(socketPath: socketPath) }
        }
    }

    /// Daemon and settings errors as one-line command failures.
    private static func failingClearly<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as SettingsChangeError {
            throw CommandFailure(failure.message)
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
