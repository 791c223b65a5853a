import Foundation
import LocationCore
import LocationProtocol

/// The daemon's last known location, sealed at rest.
///
/// Stored as ``LastLocationFileFormat`` inside a ``SealedFile``: nothing of the location is
/// readable without the key, and a changed file is refused rather than misread.
public struct LastLocationStore: Sendable {
    public static let fileName = "last-location.sealed"
    public static let keyFileName = "key"

    private let file: SealedFile

    /// directory/last-location.sealed with the key at directory/key (created on first use).
    /// - Throws: ``PersistenceError`` when the key cannot be loaded or created.
    public init(directory: URL) throws {
        let key = try SealingKey.loadOrCreate(at: directory.appendingPathComponent(Self.keyFileName))
        file = SealedFile(url: directory.appendingPathComponent(Self.fileName), key: key)
    }

    public func save(_ fix: Fix) throws {
        let data: Data
        do {
            data = try LastLocationFileFormat.encode(fix)
        } catch {
            throw PersistenceError.undecodable(path: file.url.path, reason: error.reason)
        }
        try file.write(data)
    }

    /// The last saved fix, or nil when none was saved.
    /// - Throws: ``PersistenceError``: `tampered`, or `undecodable` for an authentic record of another version.
    public func load() throws -> Fix? {
        guard let data = try file.read() else { return nil }
        do {
            return try LastLocationFileFormat.decode(data)
        } catch {
            throw PersistenceError.undecodable(path: file.url.path, reason: error.reason)
        }
    }
}
