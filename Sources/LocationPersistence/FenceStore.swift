import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Each app's fences (``StoredFences``) in a sealed file of its own: `<directory>/<SHA-256 of the app
/// id, hex>.fences`, AES-GCM sealed (``SealedFile``), replaced atomically (temporary file 0600, fsync,
/// rename) in a 0700 directory. The name is a hash because app ids are bundle ids or executable paths
/// of any length and any characters; the app id is also inside the file, and a file that names
/// another app is refused. A file copied over another app's name does not even open: its name is
/// authenticated with its content.
///
/// The fences of one user: locationd's system instance keeps a directory per user (see
/// ``directory(inStateDirectory:user:)``). A store holds no state of its own, so instances in several
/// processes may share a directory; each app's file is written whole, last writer wins.
public struct FenceStore: Sendable {
    public static let directoryName = "fences"
    /// Appended to a file that cannot be read when ``loadAll()`` or ``setAside(appID:)`` moves it out of the way.
    public static let setAsideSuffix = ".corrupt"
    static let fileExtension = ".fences"

    public let directory: URL
    private let key: SealingKey
    private let logger: Logger

    public init(directory: URL, key: SealingKey, logger: Logger = Logger(label: "corelocation.persistence")) {
        self.directory = directory
        self.key = key
        self.logger = logger
    }

    /// The store of `user` in a state directory, sealed with that directory's key, the one
    /// ``LastLocationStore`` uses (created on first use). The state directory is the one the process
    /// already keeps its state in: locationd's `DaemonConfiguration.stateDirectory`, and in an app
    /// without locationd `SQLiteAuthorizationStore.defaultDirectory()` (`$CORELOCATION_STATE_DIR`,
    /// else `$XDG_STATE_HOME/corelocation`), which is also a user's locationd's default, so the same
    /// fences are found whichever of the two runs.
    /// - Throws: ``FenceStoreError`` with a `storage` reason when the key cannot be loaded or created.
    public init(
        stateDirectory: URL, user: UInt32 = getuid(), logger: Logger = Logger(label: "corelocation.persistence")
    ) throws(FenceStoreError) {
        let keyURL = stateDirectory.appendingPathComponent(LastLocationStore.keyFileName)
        let directory = Self.directory(inStateDirectory: stateDirectory, user: user)
        do {
            let key = try SealingKey.loadOrCreate(at: keyURL)
            // The per-user level is made 0700 by the first write; this one, by whoever made it, too.
            try PrivateFiles.makePrivateDirectory(directory.deletingLastPathComponent().path)
            self.init(directory: directory, key: key, logger: logger)
        } catch let error as PersistenceError {
            throw FenceStoreError(path: keyURL.path, reason: .storage(error))
        } catch {
            throw FenceStoreError(path: keyURL.path, reason: .storage(.io(path: keyURL.path, operation: "\(error)", errno: EIO)))
        }
    }

    /// `stateDirectory/fences/<uid>`: the same place for a user's locationd and for the service inside
    /// an app when no locationd runs, and one directory per user for locationd's system instance.
    public static func directory(inStateDirectory stateDirectory: URL, user: UInt32) -> URL {
        stateDirectory.appendingPathComponent(directoryName, isDirectory: true)
            .appendingPathComponent(String(user), isDirectory: true)
    }

    /// The file name of an app's fences: the SHA-256 of its id's UTF-8, in lowercase hex, `.fences`.
    public static func fileName(for appID: String) -> String {
        AppFileName.name(for: appID, extension: fileExtension)
    }

    public func fileURL(for appID: String) -> URL {
        directory.appendingPathComponent(Self.fileName(for: appID))
    }

    // MARK: - One app

    /// The app's fences; empty when it has no file.
    /// - Throws: ``FenceStoreError``: `storage` (unreadable, tampered, wrong key, copied from another
    ///   app's file) or `format` (not a fence file, a future version, another app, invalid). The file
    ///   is left as it is (``setAside(appID:)`` moves it).
    public func load(appID: String) throws(FenceStoreError) -> StoredFences {
        let url = fileURL(for: appID)
        guard let data = try read(url) else { return StoredFences() }
        do throws(FenceFileError) {
            return try FenceFileFormat.decode(data, appID: appID)
        } catch {
            throw FenceStoreError(path: url.path, reason: .format(error))
        }
    }

    /// Replaces the app's file with `fences`; an empty value (no fence, no pending event) removes it.
    /// - Throws: ``FenceStoreError``: `format` for a value that would not read back (a coordinate out
    ///   of range, a radius not positive, a duplicate or empty identifier, a fence's last event naming
    ///   another fence, more than the file's limits), `storage` when the file cannot be written. The
    ///   old file is then intact.
    public func save(_ fences: StoredFences, appID: String) throws(FenceStoreError) {
        let url = fileURL(for: appID)
        do {
            if fences.isEmpty {
                try PrivateFiles.remove(url.path)
                return
            }
            let data: Data
            do throws(FenceFileError) {
                data = try FenceFileFormat.encode(fences, appID: appID)
            } catch {
                throw FenceStoreError(path: url.path, reason: .format(error))
            }
            try SealedFile(url: url, key: key).write(data)
        } catch let error as FenceStoreError {
            throw error
        } catch {
            throw FenceStoreError(path: url.path, reason: .storage(Self.persistenceError(error, path: url.path)))
        }
    }

    /// Moves the app's file to its name with ``setAsideSuffix`` (replacing an earlier one), so that the
    /// app starts with no fences while the file is kept for inspection. Returns the new path, or nil
    /// when the app has no file.
    @discardableResult
    public func setAside(appID: String) throws(FenceStoreError) -> String? {
        let path = fileURL(for: appID).path
        guard PrivateFiles.identity(of: path) != nil else { return nil }
        do {
            try PrivateFiles.move(path, to: path + Self.setAsideSuffix)
        } catch {
            throw FenceStoreError(path: path, reason: .storage(Self.persistenceError(error, path: path)))
        }
        return path + Self.setAsideSuffix
    }

    // MARK: - Every app

    /// Every app's fences in the directory (none when it does not exist), and the files that could
    /// not be loaded. A file that fails never stops the others from loading.
    ///
    /// A writer killed between writing its temporary file and renaming it leaves that file behind; it
    /// is removed once no process has the writer's id (a live writer's is left to it).
    ///
    /// A file that can be read but not understood — failing authentication (changed, truncated,
    /// sealed with another key, copied from another app's file), not a fence file, a version this one
    /// does not read, another app's, invalid — is moved aside (``setAsideSuffix``): its app starts
    /// afresh, its next save does not destroy the evidence, and a file from a newer version can be put
    /// back by hand after an upgrade. A file that cannot be read at all (permissions, I/O errors, not
    /// a regular file) is left where it is: the cause may pass, and moving would not help.
    public func loadAll() -> (fences: [String: StoredFences], failures: [FenceStoreFailure]) {
        let names: [String]
        do {
            names = try fileNames()
        } catch {
            let failure = FenceStoreFailure(
                error: FenceStoreError(path: directory.path, reason: .storage(error)), movedTo: nil)
            logger.error("fences could not be listed", metadata: ["error": "\(failure.error)"])
            return ([:], [failure])
        }
        var fences: [String: StoredFences] = [:]
        var failures: [FenceStoreFailure] = []
        for name in names {
            let url = directory.appendingPathComponent(name)
            let identity = PrivateFiles.identity(of: url.path)
            do throws(FenceStoreError) {
                guard let data = try read(url) else { continue }
                let (appID, stored): (String, StoredFences)
                do throws(FenceFileError) {
                    (appID, stored) = try FenceFileFormat.decodeAnyApp(data)
                    guard Self.fileName(for: appID) == name else {
                        throw FenceFileError.foreign(storedAppID: appID, expectedAppID: nil)
                    }
                } catch {
                    throw FenceStoreError(path: url.path, reason: .format(error))
                }
                fences[appID] = stored
            } catch {
                let movedTo = Self.deservesSettingAside(error) ? moveAside(url, ifStill: identity) : nil
                let failure = FenceStoreFailure(error: error, movedTo: movedTo)
                logger.error("an app's fences could not be loaded", metadata: ["failure": "\(failure)"])
                failures.append(failure)
            }
        }
        return (fences, failures)
    }

    /// The names that are fence files (`<64 hex>.fences`), sorted; temporary and set-aside files are
    /// not. Temporary files of writers that are gone (killed between writing and renaming) are removed.
    private func fileNames() throws(PersistenceError) -> [String] {
        guard let stream = opendir(directory.path) else {
            let code = errno
            if code == ENOENT { return [] }
            throw .io(path: directory.path, operation: "opendir", errno: code)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if Self.isFenceFileName(name) {
                names.append(name)
            } else if let pid = Self.writerOfTemporaryFile(name), kill(pid, 0) != 0, errno == ESRCH {
                let path = directory.appendingPathComponent(name).path
                if unlink(path) == 0 {
                    logger.notice("removed the temporary file of a writer that is gone", metadata: ["path": "\(path)"])
                }
            }
        }
        return names.sorted()
    }

    static func isFenceFileName(_ name: String) -> Bool {
        guard name.hasSuffix(fileExtension) else { return false }
        let hash = name.utf8.dropLast(fileExtension.utf8.count)
        return hash.count == 64 && hash.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The writer's process id in the name of a temporary fence file (`.<fence file>.<pid>.<random>.tmp`,
    /// as ``PrivateFiles`` names them), or nil for any other name.
    static func writerOfTemporaryFile(_ name: String) -> pid_t? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        // "", hash, "fences", pid, random, "tmp"
        guard parts.count == 6, parts[0].isEmpty, isFenceFileName("\(parts[1]).\(parts[2])"), parts[5] == "tmp",
              UInt64(parts[4]) != nil, let pid = pid_t(parts[3]), pid > 0
        else { return nil }
        return pid
    }

    /// Failures of the file's content, not of reaching it.
    private static func deservesSettingAside(_ error: FenceStoreError) -> Bool {
        switch error.reason {
        case .format: true
        case .storage(.tampered), .storage(.undecodable): true
        case .storage(.io), .storage(.notARegularFile), .storage(.insecurePermissions), .storage(.badKeySize): false
        }
    }

    /// Moves the file at `url` aside unless it was replaced since it was read (a writer in another
    /// process: the new file is not the one that failed).
    private func moveAside(_ url: URL, ifStill identity: PrivateFiles.FileIdentity?) -> String? {
        guard let identity, PrivateFiles.identity(of: url.path) == identity else { return nil }
        let destination = url.path + Self.setAsideSuffix
        do {
            try PrivateFiles.move(url.path, to: destination)
            return destination
        } catch {
            logger.error("a fence file that cannot be loaded could not be moved aside", metadata: [
                "path": "\(url.path)", "error": "\(error)",
            ])
            return nil
        }
    }

    // MARK: - Sealed files

    private func read(_ url: URL) throws(FenceStoreError) -> Data? {
        do {
            return try SealedFile(url: url, key: key).read()
        } catch {
            throw FenceStoreError(path: url.path, reason: .storage(Self.persistenceError(error, path: url.path)))
        }
    }

    /// SealedFile and PrivateFiles throw nothing but PersistenceError; anything else is reported as I/O.
    private static func persistenceError(_ error: any Error, path: String) -> PersistenceError {
        (error as? PersistenceError) ?? .io(path: path, operation: "\(error)", errno: EIO)
    }
}
