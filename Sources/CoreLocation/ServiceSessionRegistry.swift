import Foundation
import LocationBootstrap
import LocationCore
import LocationProtocol

/// Which service sessions (`CLServiceSession`) an app's process holds, for the features that need
/// one when the app sets `NSLocationRequireExplicitServiceSession`: live updates and monitors wait
/// for a session and say so (`serviceSessionRequired`), and resume when one is held.
///
/// One registry per app and service (tests run several worlds in one process).
final class ServiceSessionRegistry: Sendable {
    private struct State {
        var sessions: Set<UInt64> = []
        var lastID: UInt64 = 0
        var observers: [UInt64: @Sendable (Bool) -> Void] = [:]
        /// Sessions whose full-accuracy purpose obtained the process's temporary full accuracy.
        var fullAccuracyHolders = 0
    }

    private let state = Locked(State())

    private struct Key: Hashable {
        let provider: ObjectIdentifier
        let app: String
    }

    private static let registries = Locked<[Key: ServiceSessionRegistry]>([:])

    static func registry(for system: LocationSystem) -> ServiceSessionRegistry {
        let key = Key(provider: ObjectIdentifier(system.provider), app: system.app.id)
        return registries.withLock { registries in
            if let registry = registries[key] { return registry }
            let registry = ServiceSessionRegistry()
            registries[key] = registry
            return registry
        }
    }

    /// Whether the process holds a session now.
    var isHeld: Bool { state.withLock { !$0.sessions.isEmpty } }

    /// Records a session; returns its id for ``release(_:)``.
    func hold() -> UInt64 {
        let (id, notify) = state.withLock { state -> (UInt64, [@Sendable (Bool) -> Void]) in
            state.lastID += 1
            let wasHeld = !state.sessions.isEmpty
            state.sessions.insert(state.lastID)
            return (state.lastID, wasHeld ? [] : Array(state.observers.values))
        }
        for observer in notify { observer(true) }
        return id
    }

    func release(_ id: UInt64) {
        let notify = state.withLock { state -> [@Sendable (Bool) -> Void] in
            guard state.sessions.remove(id) != nil, state.sessions.isEmpty else { return [] }
            return Array(state.observers.values)
        }
        for observer in notify { observer(false) }
    }

    /// A session obtained temporary full accuracy for the process.
    func holdFullAccuracy() {
        state.withLock { $0.fullAccuracyHolders += 1 }
    }

    /// A session that obtained temporary full accuracy ends; returns whether it was the last, so
    /// the grant ends with it.
    func releaseFullAccuracy() -> Bool {
        state.withLock { state in
            state.fullAccuracyHolders = max(0, state.fullAccuracyHolders - 1)
            return state.fullAccuracyHolders == 0
        }
    }

    /// Calls `observer` now with whether a session is held, then on every change; returns the id
    /// for ``stopObserving(_:)``.
    func observe(_ observer: @escaping @Sendable (Bool) -> Void) -> UInt64 {
        let (id, held) = state.withLock { state -> (UInt64, Bool) in
            state.lastID += 1
            state.observers[state.lastID] = observer
            return (state.lastID, !state.sessions.isEmpty)
        }
        observer(held)
        return id
    }

    func stopObserving(_ id: UInt64) {
        _ = state.withLock { $0.observers.removeValue(forKey: id) }
    }
}
