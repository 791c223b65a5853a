import Foundation
import LocationCore
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The authorization store for one user: one JSON file, `authorization.json`, in a private directory.
///
/// - The directory is created with mode 0700 when first written, the file with mode 0600. The file holds
///   decisions only (no location data) and is meant to be readable by people.
/// - Writes are atomic: a temporary file in the same directory is written, synced and renamed over the old
///   one, so a reader sees the old or the new database, never half of one.
/// - ``update(_:)`` holds an exclusive `flock` on `authorization.lock` for the whole read-modify-write, so
///   `locationctl grant` and a running app (or two threads with their own store objects) never lose each
///   other's writes.
/// - A missing file is an empty database. A file that cannot be read or decoded is an error for both
///   ``read()`` and ``update(_:)``; it is never treated as "allowed" and never overwritten.
public final class FileAuthorizationStore: AuthorizationStore {
    public static let fileName = "authorization.json"
    public static let lockFileName = "authorization.lock"
    /// Overrides the state directory (see ``defaultDirectory(environment:)``).
    public static let stateDirectoryEnvironmentVariable = "CORELOCATION_STATE_DIR"

    public let directory: URL
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }
    public var lockFileURL: URL { directory.appendingPathComponent(Self.lockFileName) }

    private let logger: Logger

    /// - Parameter directory: where the store lives; nothing is created until the first write.
    public init(directory: URL, logger: Logger = Logger(label: "corelocation.policy")) {
        self.directory = directory.standardizedFileURL
        self.logger = logger
    }

    /// `$CORELOCATION_STATE_DIR`, else `$XDG_STATE_HOME/corelocation`, else `~/.local/state/corelocation`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment[stateDirectoryEnvironmentVariable], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return XDGDirectories.stateHome(environment: environment).appendingPathComponent("corelocation", isDirectory: true)
    }

    public func read() throws -> AuthorizationDatabase {
        try load()
    }

    @discardableResult
    public func update(_ body: (inout AuthorizationDatabase) throws -> Void) throws -> AuthorizationDatabase {
        do {
            try POSIXFile.makePrivateDirectory(path: directory.path)
        } catch {
            throw AuthorizationStoreError(code: .lockFailed, path: directory.path, reason: error.reason)
        }
        let lock: Int32
        do {
            lock = try POSIXFile.lockExclusive(path: lockFileURL.path)
        } catch {
            throw AuthorizationStoreError(code: .lockFailed, path: lockFileURL.path, reason: error.reason)
        }
        defer { POSIXFile.unlock(fd: lock) }

        removeStaleTemporaryFiles()
        let previousStatus: POSIXFile.Status?
        do {
            previousStatus = try POSIXFile.status(path: fileURL.path)
        } catch {
            throw AuthorizationStoreError(code: .unreadable, path: fileURL.path, reason: error.reason)
        }
        let current = try load()
        var database = current
        try body(&database)
        guard database != current else { return current }

        let data: Data
        do {
            data = try AuthorizationFileFormat.encode(database)
        } catch {
            throw AuthorizationStoreError(code: .writeFailed, path: fileURL.path, reason: "encoding failed: \(error)")
        }
        let temporary = directory.appendingPathComponent(
            "\(Self.temporaryPrefix)\(getpid()).\(UInt32.random(in: 0...UInt32.max))\(Self.temporarySuffix)")
        do {
            try POSIXFile.replaceAtomically(
                path: fileURL.path, with: data, temporaryPath: temporary.path, notBefore: previousStatus?.modified)
        } catch {
            throw AuthorizationStoreError(code: .writeFailed, path: fileURL.path, reason: error.reason)
        }
        logger.debug("authorization store written", metadata: ["path": "\(fileURL.path)", "apps": "\(database.apps.count)"])
        return database
    }

    public func changeToken() -> StoreChangeToken {
        do {
            guard let status = try POSIXFile.status(path: fileURL.path) else { return StoreChangeToken(.missing) }
            return StoreChangeToken(.file(
                device: status.device, inode: status.inode, size: status.size,
                modified: status.modifiedNanoseconds, changed: status.changedNanoseconds))
        } catch {
            return StoreChangeToken(.statFailed(errno: error.errno))
        }
    }

    // MARK: - Internals

    static let temporaryPrefix = ".authorization.json."
    static let temporarySuffix = ".tmp"

    private func load() throws -> AuthorizationDatabase {
        let path = fileURL.path
        let data: Data?
        do {
            data = try POSIXFile.readAll(path: path)
        } catch {
            throw AuthorizationStoreError(code: .unreadable, path: path, reason: error.reason)
        }
        guard let data else { return AuthorizationDatabase() }
        do {
            return try AuthorizationFileFormat.decode(data)
        } catch {
            switch error {
            case .corrupt(let reason):
                // Not logged here: callers may read often; the error says everything and they log it.
                throw AuthorizationStoreError(code: .corrupt, path: path, reason: reason)
            case .unsupportedVersion(let version):
                throw AuthorizationStoreError(
                    code: .unsupportedVersion, path: path,
                    reason: "format version \(version); this build understands up to \(AuthorizationFileFormat.currentVersion)")
            }
        }
    }

    /// Temporary files left by a writer that crashed. Only called with the lock held: any temporary file
    /// that exists then belongs to nobody.
    private func removeStaleTemporaryFiles() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(Self.temporaryPrefix) && name.hasSuffix(Self.temporarySuffix) {
            let path = directory.appendingPathComponent(name).path
            if unlink(path) == 0 {
                logger.notice("removed a temporary file left by an interrupted write", metadata: ["path": "\(path)"])
            }
        }
    }
}
