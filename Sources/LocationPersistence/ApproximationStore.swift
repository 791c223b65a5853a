import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Each app's approximate-location history (``StoredApproximation``) in a sealed file of its own:
/// `<state directory>/approximate/<uid>/<SHA-256 of the app id, hex>.approximate`, AES-GCM sealed
/// with the state directory's key (``SealedFile``), replaced atomically. Like ``FenceStore``, it
/// holds no state, so the service inside an app and a user's `locationd` share the same files.
public struct ApproximationStore: Sendable {
    public static let directoryName = "approximate"
    public static let setAsideSuffix = ".corrupt"
    static let fileExtension = ".approximate"

    public let directory: URL
    private let key: SealingKey

    public init(directory: URL, key: SealingKey) {
        self.directory = directory
        self.key = key
    }

    /// The store of `user` in a state directory, sealed with that directory's key (created on first use).
    /// - Throws: ``PersistenceError`` when the key cannot be loaded or created.
    public init(stateDirectory: URL, user: UInt32 = getuid()) throws {
        let key = try SealingKey.loadOrCreate(at: stateDirectory.appendingPathComponent(LastLocationStore.keyFileName))
        let directory = stateDirectory.appendingPathComponent(Self.directoryName, isDirectory: true)
            .appendingPathComponent(String(user), isDirectory: true)
        try PrivateFiles.makePrivateDirectory(directory.deletingLastPathComponent().path)
        self.init(directory: directory, key: key)
    }

    public func fileURL(for appID: String) -> URL {
        directory.appendingPathComponent(AppFileName.name(for: appID, extension: Self.fileExtension))
    }

    /// The app's history; empty when it has none.
    /// - Throws: ``PersistenceError``: `tampered` (changed, truncated, another key, another app's file
    ///   renamed), `undecodable` (not such a file, another version, another app, invalid values), or
    ///   an I/O error. The file is left as it is (``setAside(appID:)`` moves it).
    public func load(appID: String) throws -> StoredApproximation {
        let url = fileURL(for: appID)
        guard let data = try SealedFile(url: url, key: key).read() else { return StoredApproximation() }
        do throws(ApproximationFileError) {
            return try ApproximationFileFormat.decode(data, appID: appID)
        } catch {
            throw PersistenceError.undecodable(path: url.path, reason: error.description)
        }
    }

    /// Replaces the app's file; an empty value removes it. On failure the old file is intact.
    public func save(_ value: StoredApproximation, appID: String) throws {
        let url = fileURL(for: appID)
        if value.isEmpty {
            try PrivateFiles.remove(url.path)
            return
        }
        let data: Data
        do throws(ApproximationFileError) {
            data = try ApproximationFileFormat.encode(value, appID: appID)
        } catch {
            throw PersistenceError.undecodable(path: url.path, reason: error.description)
        }
        try SealedFile(url: url, key: key).write(data)
    }

    /// Moves the app's file aside (its name with ``setAsideSuffix``), keeping it for inspection.
    public func setAside(appID: String) throws {
        let path = fileURL(for: appID).path
        guard PrivateFiles.identity(of: path) != nil else { return }
        try PrivateFiles.move(path, to: path + Self.setAsideSuffix)
    }
}
