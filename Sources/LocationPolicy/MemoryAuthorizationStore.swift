import Foundation
import LocationCore
import LocationProtocol

/// An authorization store that lives in memory: for tests and for processes that must not persist
/// decisions. Its change token is a counter bumped by every write that changes something.
public final class MemoryAuthorizationStore: AuthorizationStore {
    private struct State {
        var database: AuthorizationDatabase
        var counter: UInt64 = 0
        var failure: (any Error)?
    }

    private let state: Locked<State>

    public init(_ database: AuthorizationDatabase = AuthorizationDatabase()) {
        state = Locked(State(database: database))
    }

    public func read() throws -> AuthorizationDatabase {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            return state.database
        }
    }

    @discardableResult
    public func update(_ body: (inout AuthorizationDatabase) throws -> Void) throws -> AuthorizationDatabase {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            var database = state.database
            try body(&database)
            if database != state.database {
                state.database = database
                state.counter += 1
            }
            return database
        }
    }

    public func changeToken() -> StoreChangeToken {
        state.withLock { .counter($0.counter) }
    }

    /// Makes ``read()`` and ``update(_:)`` throw `error` until called again with nil, as a corrupt or
    /// unreadable file store would. Changes the change token, as replacing a file would.
    public func simulateFailure(_ error: (any Error)?) {
        state.withLock { state in
            state.failure = error
            state.counter += 1
        }
    }
}
