import Foundation
import LocationCore
import LocationProtocol

/// One fence group of an app as the service keeps it: its fences with their last events, in the
/// order they were added, and the events that wait for the app's next launch, oldest first.
public struct StoredFenceGroup: Sendable, Equatable {
    public var records: [FenceRecord]
    public var pending: [FenceEvent]

    public init(records: [FenceRecord] = [], pending: [FenceEvent] = []) {
        self.records = records
        self.pending = pending
    }

    public var isEmpty: Bool { records.isEmpty && pending.isEmpty }
}

/// Where the service keeps every app's fences, so that they and their undelivered events survive
/// a restart (and `kill -9`: the service saves before it delivers).
///
/// `locationd` and the in-process service use an encrypted file per app (`LocationPersistence`);
/// tests use ``MemoryFenceStorage``.
public protocol FenceStorage: AnyObject, Sendable {
    /// Every app's groups. An app whose fences cannot be read is left out (and logged by the
    /// storage): one corrupt file never costs the other apps theirs.
    func loadAll() -> [String: [FenceGroup: StoredFenceGroup]]
    /// Replaces the app's groups; an empty dictionary removes the app's fences.
    func save(_ groups: [FenceGroup: StoredFenceGroup], app: String) throws
}

/// Fences kept in memory only: for tests, and for a service told to keep nothing.
public final class MemoryFenceStorage: FenceStorage {
    private let state = Locked<[String: [FenceGroup: StoredFenceGroup]]>([:])
    private let failing = Locked(false)

    public init(_ initial: [String: [FenceGroup: StoredFenceGroup]] = [:]) {
        state.withLock { $0 = initial }
    }

    public func loadAll() -> [String: [FenceGroup: StoredFenceGroup]] { state.withLock { $0 } }

    public func save(_ groups: [FenceGroup: StoredFenceGroup], app: String) throws {
        if failing.withLock({ $0 }) { throw MemoryFenceStorageError() }
        state.withLock { $0[app] = groups.isEmpty ? nil : groups }
    }

    /// Makes every later save fail (to test what the service does when it cannot persist).
    public func failSaves(_ fail: Bool) { failing.withLock { $0 = fail } }
}

struct MemoryFenceStorageError: Error, CustomStringConvertible {
    var description: String { "saving is switched off" }
}
