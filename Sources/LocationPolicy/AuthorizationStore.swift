import Foundation
import LocationProtocol

/// Where the user's authorization decisions live.
///
/// Implementations are safe to use from any thread and, for the SQLite store, from several processes at once.
public protocol AuthorizationStore: AnyObject, Sendable {
    /// The stored database. A missing store is an empty database (services enabled, no apps).
    /// - Throws: ``AuthorizationStoreError`` when the stored data cannot be read or is corrupt;
    ///   a store that cannot be read never means "allowed".
    func read() throws -> AuthorizationDatabase

    /// ``read()`` without waiting for another process's lock on the store: throws ``AuthorizationStoreError``
    /// with code `lockFailed` at once instead, for callers on a loop that must not stall.
    func readWithoutWaiting() throws -> AuthorizationDatabase

    /// Reads, lets `body` modify, and writes back, atomically with respect to every other updater.
    ///
    /// Nothing is written when `body` throws or leaves the database unchanged.
    /// - Returns: the database as stored afterwards.
    /// - Throws: what `body` throws, or ``AuthorizationStoreError`` (the store is then left as it was).
    @discardableResult
    func update(_ body: (inout AuthorizationDatabase) throws -> Void) throws -> AuthorizationDatabase

    /// Cheap value that changes whenever the stored data may have changed (for polling).
    func changeToken() -> StoreChangeToken
}

extension AuthorizationStore {
    /// Stores without locks between processes never wait.
    public func readWithoutWaiting() throws -> AuthorizationDatabase { try read() }
}

/// A cheap fingerprint of a store's state: equal tokens mean "probably unchanged", different tokens
/// mean "read again".
///
/// For a database file: device, inode, size, modification and status-change times in nanoseconds, and
/// the generation counter that every write bumps (file times are as coarse as the kernel's clock tick,
/// so two quick writes of the same size may leave them equal; the counter tells them apart). For the
/// memory store: a counter.
public struct StoreChangeToken: Sendable, Hashable, CustomStringConvertible {
    package enum Storage: Sendable, Hashable {
        /// `generation` is nil when the file cannot be read as a store (corrupt, not yet initialised).
        case database(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64, generation: Int64?)
        /// Another connection (another process) holds the database's lock: it cannot be read now
        /// without waiting, and nobody else can change it while the lock lasts.
        case locked(device: UInt64, inode: UInt64)
        case missing
        case statFailed(errno: Int32)
        case counter(UInt64)
    }

    package let storage: Storage

    package init(_ storage: Storage) { self.storage = storage }

    /// A token for stores that count their changes.
    public static func counter(_ value: UInt64) -> StoreChangeToken { StoreChangeToken(.counter(value)) }

    /// True when another connection held the store's lock as the token was taken.
    public var isLocked: Bool {
        if case .locked = storage { return true }
        return false
    }

    public var description: String {
        switch storage {
        case let .database(device, inode, size, modified, changed, generation):
            "database(dev \(device), ino \(inode), \(size) bytes, mtime \(modified) ns, ctime \(changed) ns, "
                + "generation \(generation.map(String.init) ?? "unreadable"))"
        case let .locked(device, inode): "locked(dev \(device), ino \(inode))"
        case .missing: "missing"
        case let .statFailed(code): "stat failed (errno \(code))"
        case let .counter(value): "counter(\(value))"
        }
    }
}
