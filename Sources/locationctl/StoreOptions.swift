import ArgumentParser
import Foundation
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol

/// Which authorization store the settings commands change.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Directory of the authorization store.",
        discussion: "Default: $CORELOCATION_STATE_DIR, else $XDG_STATE_HOME/corelocation, else ~/.local/state/corelocation."))
    var stateDir: String?

    var store: SQLiteAuthorizationStore {
        SQLiteAuthorizationStore(directory: stateDir.map { URL(fileURLWithPath: $0) } ?? SQLiteAuthorizationStore.defaultDirectory())
    }

    /// Applies `body` to the store, turning store errors into one-line failures.
    @discardableResult
    func update(_ body: (inout AuthorizationDatabase) throws -> Void) throws -> AuthorizationDatabase {
        do {
            return try store.update(body)
        } catch let failure as CommandFailure {
            throw failure
        } catch let failure as SettingsChangeError {
            throw CommandFailure(failure.message)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// Makes a settings change in the store and prints what changed.
    func apply(_ change: SettingsChange) throws {
        try update { try change.apply(to: &$0, now: Date()) }
        print(change.summary)
    }

    func read() throws -> AuthorizationDatabase {
        do { return try store.read() } catch { throw CommandFailure("\(error)") }
    }
}
