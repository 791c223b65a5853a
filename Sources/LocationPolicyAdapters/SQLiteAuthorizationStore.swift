import Foundation
import GRDB
import LocationCore
import LocationPolicy
import LocationProtocol
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The authorization store: one SQLite database, `authorization.sqlite`, in a private directory.
///
/// - One file may hold several users (`locationd`'s system instance); a store object is one user's view
///   of it. The Location Services switch is device-wide, shared by every user of the file.
/// - The directory is created with mode 0700 on the first write, the file with mode 0600 (whatever the
///   umask; SQLite gives its journal the database's mode). It holds decisions only, no location.
/// - ``update(_:)`` is one `BEGIN IMMEDIATE` transaction: atomic against every other updater, thread or
///   process, which waits up to ``lockWait`` for the lock.
/// - A missing file is an empty database and reading creates nothing. A file that is not a valid store
///   (not SQLite, truncated, foreign tables, a schema from a newer version) or cannot be read is an error
///   for both ``read()`` and ``update(_:)``: never "allowed", never overwritten.
public final class SQLiteAuthorizationStore: AuthorizationStore {
    public static let fileName = "authorization.sqlite"
    /// How long one statement waits for another connection's lock, seconds: updaters queue behind
    /// each other (a few milliseconds each, with an fsync, far longer on a loaded machine). A lock
    /// held longer is another process keeping the database (an administrator's `sqlite3` shell, a
    /// backup) and is reported as such. ``changeToken()`` and ``readWithoutWaiting()`` never wait:
    /// the service polls them from its delivery loop.
    public static let lockWait: TimeInterval = 5
    /// Overrides the state directory (see ``defaultDirectory(environment:)``).
    public static let stateDirectoryEnvironmentVariable = "CORELOCATION_STATE_DIR"

    public let fileURL: URL
    public let user: UInt32

    private let logger: Logger
    /// The connection, kept while the file at `fileURL` is the one it was opened on.
    private let connection = Locked<OpenDatabase?>(nil)

    /// One user's view of a store file that may hold several users (locationd's system instance).
    /// Nothing is created until the first write.
    /// - Parameter user: whose apps this store reads and writes; the calling process's uid by default.
    public init(fileURL: URL, user: UInt32 = getuid(), logger: Logger = Logger(label: "corelocation.policy")) {
        self.fileURL = fileURL.standardizedFileURL
        self.user = user
        self.logger = logger
    }

    /// The store `directory/authorization.sqlite`.
    public convenience init(directory: URL, user: UInt32 = getuid(), logger: Logger = Logger(label: "corelocation.policy")) {
        self.init(fileURL: directory.appendingPathComponent(Self.fileName), user: user, logger: logger)
    }

    /// `$CORELOCATION_STATE_DIR`, else `$XDG_STATE_HOME/corelocation`, else `~/.local/state/corelocation`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment[stateDirectoryEnvironmentVariable], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return XDGDirectories.stateHome(environment: environment).appendingPathComponent("corelocation", isDirectory: true)
    }

    // MARK: - AuthorizationStore

    /// This user's apps and the device-wide switch. A store written by an older version is upgraded
    /// in place first.
    public func read() throws -> AuthorizationDatabase {
        guard let queue = try openDatabase(creating: false)?.queue else { return AuthorizationDatabase() }
        do {
            if let stored = try load(queue) { return stored }
            // Written by an older version: upgrade it, then read.
            try prepareSchema(queue)
            let user = self.user
            return try queue.read { try AuthorizationRows.load($0, user: user) }
        } catch {
            throw storeError(error, writing: false)
        }
    }

    /// ``read()`` without waiting for a lock: while another process holds the database it throws
    /// `lockFailed` at once. (A file of an older version is upgraded by ``read()``, which may wait.)
    public func readWithoutWaiting() throws -> AuthorizationDatabase {
        guard let queue = try openDatabase(creating: false)?.queue else { return AuthorizationDatabase() }
        let stored: AuthorizationDatabase?
        do {
            stored = try withoutWaiting(queue) { db in
                var loaded: AuthorizationDatabase?
                // One snapshot for the schema check and the rows.
                try db.inTransaction(.deferred) {
                    loaded = try self.load(db)
                    return .commit
                }
                return loaded
            }
        } catch {
            throw storeError(error, writing: false)
        }
        return try stored ?? read()
    }

    /// This user's database, or nil when the file has the schema of an older version.
    private func load(_ queue: DatabaseQueue) throws -> AuthorizationDatabase? {
        try queue.read { try self.load($0) }
    }

    private func load(_ db: Database) throws -> AuthorizationDatabase? {
        switch try AuthorizationSchema.state(db) {
        case .empty: return AuthorizationDatabase()
        case .current: return try AuthorizationRows.load(db, user: user)
        case .behind: return nil
        case .newer(let unknown): throw unsupportedVersion(unknown)
        case .foreign: throw foreignSchema()
        }
    }

    /// Runs `body` on the store's connection with SQLite's busy timeout at zero: a lock held by
    /// another connection fails at once instead of being waited for. The queue runs one access at
    /// a time, so no other access sees the timeout changed.
    private func withoutWaiting<T>(_ queue: DatabaseQueue, _ body: (Database) throws -> T) throws -> T {
        try queue.inDatabase { db in
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(Self.lockWait * 1000))") }
            return try body(db)
        }
    }

    /// Runs `body` inside the write transaction. `body` must not call this store object again (GRDB
    /// connections are not reentrant); other store objects on the same file just wait for the lock.
    @discardableResult
    public func update(_ body: (inout AuthorizationDatabase) throws -> Void) throws -> AuthorizationDatabase {
        guard let queue = try openDatabase(creating: true)?.queue else {
            throw AuthorizationStoreError(code: .writeFailed, path: fileURL.path, reason: "the file disappeared while opening it")
        }
        let user = self.user
        do {
            try prepareSchema(queue)
            let (database, changed) = try queue.write { db -> (AuthorizationDatabase, Bool) in
                // Checked again inside the lock: a newer version may have migrated the file meanwhile.
                switch try AuthorizationSchema.state(db) {
                case .current: break
                case .newer(let unknown): throw self.unsupportedVersion(unknown)
                case .empty, .behind, .foreign: throw self.foreignSchema()
                }
                let current = try AuthorizationRows.load(db, user: user)
                var database = current
                do {
                    try body(&database)
                } catch {
                    throw BodyFailure(error: error)
                }
                let changed = AuthorizationRows.normalized(database)
                guard changed != current else { return (current, false) }
                try AuthorizationRows.save(changed, replacing: current, db, user: user)
                return (changed, true)
            }
            try makePrivate()
            if changed {
                logger.debug("authorization store written", metadata: [
                    "path": "\(fileURL.path)", "user": "\(user)", "apps": "\(database.apps.count)",
                ])
            }
            return database
        } catch let failure as BodyFailure {
            throw failure.error
        } catch {
            throw storeError(error, writing: true)
        }
    }

    public func changeToken() -> StoreChangeToken {
        let status: POSIXFile.Status
        do {
            guard let found = try POSIXFile.status(path: fileURL.path) else {
                connection.withLock { $0 = nil }
                return StoreChangeToken(.missing)
            }
            status = found
        } catch {
            return StoreChangeToken(.statFailed(errno: error.errno))
        }
        // A file that cannot be opened or has no settings yet still has a stat: its token changes when
        // it is replaced or repaired.
        let open = status.isRegularFile ? try? connections(for: status) : nil
        let generation: Int64?
        do {
            // Asked several times a second from the service's delivery loop: never waits for a lock.
            generation = try open.map { try withoutWaiting($0.queue) { try AuthorizationRows.generation($0) } }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            return StoreChangeToken(.locked(device: status.device, inode: status.inode))
        } catch {
            generation = nil
        }
        return StoreChangeToken(.database(
            device: status.device, inode: status.inode, size: status.size,
            modified: status.modifiedNanoseconds, changed: status.changedNanoseconds, generation: generation))
    }

    // MARK: - Connection

    private struct OpenDatabase {
        var queue: DatabaseQueue
        var device: UInt64
        var inode: UInt64
    }

    /// Wraps an error thrown by an update's body, so it is rethrown as it is rather than as a store error.
    private struct BodyFailure: Error {
        var error: any Error
    }

    /// Serialises creating the file and opening connections within this process. SQLite's locks are
    /// POSIX record locks, which a process loses on *every* descriptor of a file when it closes *any*;
    /// so no store may open the database while another closes the descriptor it created the file with.
    private static let fileAccess = Locked(())

    /// The connection to the file at `fileURL` now, reopened when the file was replaced. Nil when there
    /// is no file and `creating` is false; with `creating`, the directory (0700) and an empty file (0600)
    /// are created first.
    private func openDatabase(creating: Bool) throws -> OpenDatabase? {
        let path = fileURL.path
        var status = try fileStatus()
        if status == nil {
            guard creating else {
                connection.withLock { $0 = nil }
                return nil
            }
            try createFile()
            status = try fileStatus()
        }
        guard let status else { return nil }
        guard status.isRegularFile else {
            throw AuthorizationStoreError(code: .unreadable, path: path, reason: "not a regular file")
        }
        do {
            return try connections(for: status)
        } catch {
            throw storeError(error, writing: creating)
        }
    }

    private func connections(for status: POSIXFile.Status) throws -> OpenDatabase {
        try connection.withLock { open in
            if let open, open.device == status.device, open.inode == status.inode { return open }
            open = nil
            var configuration = Configuration()
            configuration.busyMode = .timeout(Self.lockWait)
            configuration.label = "corelocation.authorization"
            let opened = try Self.fileAccess.withLock { _ in
                OpenDatabase(
                    queue: try DatabaseQueue(path: fileURL.path, configuration: configuration),
                    device: status.device, inode: status.inode)
            }
            open = opened
            return opened
        }
    }

    /// A store file readable by others (copied in, created by another tool) is made private by the
    /// first update, once that has read it as a valid store: a corrupt file is left exactly as it was.
    private func makePrivate() throws {
        let path = fileURL.path
        guard let status = try fileStatus(), status.permissions & 0o077 != 0 else { return }
        guard chmod(path, status.permissions & 0o700) == 0 else {
            throw AuthorizationStoreError(
                code: .writeFailed, path: path,
                reason: POSIXFile.Failure(errno: errno, operation: "make the store private (chmod)").reason)
        }
        logger.notice("made the authorization store private (it was readable by others)", metadata: [
            "path": "\(path)", "mode": "\(String(status.permissions, radix: 8))",
        ])
    }

    private func fileStatus() throws -> POSIXFile.Status? {
        do {
            return try POSIXFile.status(path: fileURL.path)
        } catch {
            throw AuthorizationStoreError(code: .unreadable, path: fileURL.path, reason: error.reason)
        }
    }

    private func createFile() throws {
        let directory = fileURL.deletingLastPathComponent().path
        do {
            try POSIXFile.makePrivateDirectory(path: directory)
        } catch {
            throw AuthorizationStoreError(code: .writeFailed, path: directory, reason: error.reason)
        }
        let path = fileURL.path
        let created = try Self.fileAccess.withLock { _ in
            do throws(POSIXFile.Failure) {
                return try POSIXFile.createPrivateFile(path: path)
            } catch {
                throw AuthorizationStoreError(code: .writeFailed, path: path, reason: error.reason)
            }
        }
        if created { logger.debug("authorization store created", metadata: ["path": "\(fileURL.path)"]) }
    }

    /// How often a migration that lost a race with another process's is tried again: once per
    /// migration another process may be running is enough.
    private static let migrationAttempts = 5

    /// Brings a new or older file to the current schema; refuses newer and foreign ones.
    private func prepareSchema(_ queue: DatabaseQueue) throws {
        switch try queue.read(AuthorizationSchema.state) {
        case .current:
            return
        case .newer(let unknown):
            throw unsupportedVersion(unknown)
        case .foreign:
            throw foreignSchema()
        case .empty, .behind:
            // Several processes may migrate at once. Each migration is its own transaction, so one
            // that read an older state fails on tables another has made meanwhile; it tries again
            // from what the file holds now, until the file is current (by whoever migrated it).
            for attempt in 1...Self.migrationAttempts {
                do {
                    try AuthorizationSchema.migrator.migrate(queue)
                    return
                } catch {
                    let state = try queue.read(AuthorizationSchema.state)
                    if state == .current { return }
                    if attempt == Self.migrationAttempts || state != .behind && state != .empty { throw error }
                }
            }
        }
    }

    // MARK: - Errors

    private func unsupportedVersion(_ unknown: [String]) -> AuthorizationStoreError {
        AuthorizationStoreError(
            code: .unsupportedVersion, path: fileURL.path,
            reason: "its schema has migrations this version does not know (\(unknown.joined(separator: ", ")))")
    }

    private func foreignSchema() -> AuthorizationStoreError {
        AuthorizationStoreError(
            code: .corrupt, path: fileURL.path, reason: "a SQLite database, but not an authorization store")
    }

    /// Says what went wrong in the store's terms; a database that cannot be understood is `.corrupt`.
    private func storeError(_ error: any Error, writing: Bool) -> AuthorizationStoreError {
        let path = fileURL.path
        if let error = error as? AuthorizationStoreError { return error }
        if let corruption = error as? AuthorizationRows.Corruption {
            return AuthorizationStoreError(code: .corrupt, path: path, reason: corruption.reason)
        }
        guard let error = error as? DatabaseError else {
            return AuthorizationStoreError(code: writing ? .writeFailed : .unreadable, path: path, reason: "\(error)")
        }
        let message = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return AuthorizationStoreError(code: .corrupt, path: path, reason: "not a SQLite database (\(message))")
        case .SQLITE_CORRUPT, .SQLITE_FORMAT, .SQLITE_RANGE:
            return AuthorizationStoreError(code: .corrupt, path: path, reason: "SQLite: \(message)")
        case .SQLITE_ERROR, .SQLITE_MISMATCH, .SQLITE_SCHEMA:
            // "no such table/column": the file claims our schema but does not have it.
            return AuthorizationStoreError(code: .corrupt, path: path, reason: "not the expected tables: \(message)")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return AuthorizationStoreError(
                code: .lockFailed, path: path, reason: "locked by another process for longer than \(Self.lockWait) s (\(message)); try again once it lets go")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            return AuthorizationStoreError(code: .unreadable, path: path, reason: message)
        default:
            return AuthorizationStoreError(code: writing ? .writeFailed : .unreadable, path: path, reason: message)
        }
    }
}
