import Foundation
import LocationCore
import LocationPersistence
import LocationProtocol
import Logging

/// Where the service keeps every app's fences, so that they and their undelivered events survive
/// a restart (and `kill -9`: the service saves before it delivers).
///
/// `locationd` and the in-process service use `LocationPersistence`'s `FenceStore` (an encrypted
/// file per app); tests use ``MemoryFenceStorage``.
public protocol FenceStorage: Sendable {
    /// Every app's fences. An app whose fences cannot be read is left out (and logged): one corrupt
    /// file never costs the other apps theirs.
    func loadEveryApp(logger: Logger) -> [String: StoredFences]
    /// Replaces the app's fences; empty fences remove the app's file.
    func save(_ fences: StoredFences, appID: String) throws
}

extension FenceStore: FenceStorage {
    public func loadEveryApp(logger: Logger) -> [String: StoredFences] {
        let (fences, failures) = loadAll()
        for failure in failures {
            logger.error("an app's fences could not be read; it starts without them", metadata: ["failure": "\(failure)"])
        }
        return fences
    }
}

/// Fences kept in memory only: for tests, and for a service told to keep nothing.
public final class MemoryFenceStorage: FenceStorage {
    private let state = Locked<[String: StoredFences]>([:])
    private let failing = Locked(false)

    public init(_ initial: [String: StoredFences] = [:]) {
        state.withLock { $0 = initial }
    }

    public func loadEveryApp(logger: Logger) -> [String: StoredFences] { state.withLock { $0 } }

    public func save(_ fences: StoredFences, appID: String) throws {
        if failing.withLock({ $0 }) { throw MemoryFenceStorageError() }
        state.withLock { $0[appID] = fences.isEmpty ? nil : fences }
    }

    /// Makes every later save fail (to test what the service does when it cannot persist).
    public func failSaves(_ fail: Bool) { failing.withLock { $0 = fail } }
}

struct MemoryFenceStorageError: Error, CustomStringConvertible {
    var description: String { "saving is switched off" }
}

/// One app's fences in a `FenceStore`: an app's own in-process service watches its fences only,
/// never those the files of other apps hold.
public struct OneAppFenceStorage: FenceStorage {
    public let store: FenceStore
    public let appID: String

    public init(store: FenceStore, appID: String) {
        self.store = store
        self.appID = appID
    }

    public func loadEveryApp(logger: Logger) -> [String: StoredFences] {
        do {
            let fences = try store.load(appID: appID)
            return fences.isEmpty ? [:] : [appID: fences]
        } catch {
            logger.error("the app's fences could not be read; it starts without them", metadata: ["error": "\(error)"])
            _ = try? store.setAside(appID: appID)
            return [:]
        }
    }

    public func save(_ fences: StoredFences, appID: String) throws {
        guard appID == self.appID else { return }
        try store.save(fences, appID: appID)
    }
}
