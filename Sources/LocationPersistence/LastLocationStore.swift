import Foundation
import LocationCore
import LocationProtocol

/// The daemon's last known location, sealed at rest.
///
/// Stored as JSON (`{"version": 1, "fix": …}`) inside a ``SealedFile``: nothing of the location is
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
            data = try Self.encoder.encode(Stored(version: Self.version, fix: fix))
        } catch {
            throw PersistenceError.undecodable(path: file.url.path, reason: "encoding failed: \(error)")
        }
        try file.write(data)
    }

    /// The last saved fix, or nil when none was saved.
    /// - Throws: ``PersistenceError``: `tampered`, or `undecodable` for an authentic record of another version.
    public func load() throws -> Fix? {
        guard let data = try file.read() else { return nil }
        let stored: Stored
        do {
            stored = try Self.decoder.decode(Stored.self, from: data)
        } catch {
            throw PersistenceError.undecodable(path: file.url.path, reason: "not a saved location: \(error)")
        }
        guard stored.version == Self.version else {
            throw PersistenceError.undecodable(
                path: file.url.path, reason: "format version \(stored.version); this version reads \(Self.version)")
        }
        return stored.fix
    }

    // MARK: - Format

    private static let version = 1

    private struct Stored: Codable {
        var version: Int
        var fix: Fix
    }

    /// Dates as seconds since 2001 and doubles in shortest exact form: a fix reads back identical.
    /// Non-finite numbers (no source should make them) are kept as strings rather than failing the save.
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}
