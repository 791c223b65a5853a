import Foundation
import LocationProtocol

/// The plaintext of the daemon's last-location file: `{"version": 1, "fix": …}`, a ``Fix`` as JSON.
///
/// Dates are seconds since 2001 and doubles are written in shortest exact form, so a fix reads back
/// identical. Non-finite numbers (no source should make them) are kept as strings rather than
/// failing the save.
public enum LastLocationFileFormat {
    public static let version = 1

    public static func encode(_ fix: Fix) throws(LastLocationFileError) -> Data {
        do {
            return try encoder.encode(Stored(version: version, fix: fix))
        } catch {
            throw LastLocationFileError(reason: "encoding failed: \(error)")
        }
    }

    /// - Throws: ``LastLocationFileError`` for anything but a saved location of this version.
    public static func decode(_ data: Data) throws(LastLocationFileError) -> Fix {
        let stored: Stored
        do {
            stored = try decoder.decode(Stored.self, from: data)
        } catch {
            throw LastLocationFileError(reason: "not a saved location: \(error)")
        }
        guard stored.version == version else {
            throw LastLocationFileError(reason: "format version \(stored.version); this version reads \(version)")
        }
        return stored.fix
    }

    private struct Stored: Codable {
        var version: Int
        var fix: Fix
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        // One fix, one file: without sorted keys the order follows each run's hash seed.
        encoder.outputFormatting = [.sortedKeys]
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

/// Why a last-location file's plaintext could not be read or written.
public struct LastLocationFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
