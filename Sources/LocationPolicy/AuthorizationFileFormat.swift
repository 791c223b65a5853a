import Foundation

/// The JSON layout of `authorization.json`.
///
/// Pretty-printed with sorted keys so people can read and diff it. It holds decisions only, never a
/// location. Dates are ISO 8601 strings with millisecond precision (so `AppRecord.updated` round-trips
/// to the millisecond).
enum AuthorizationFileFormat {
    static let currentVersion = 1
    static let comment =
        "Location authorization decisions per app (managed by locationctl). This file holds no location data."

    private struct StoredFile: Codable {
        var version: Int
        var comment: String?
        var servicesEnabled: Bool
        var apps: [String: AppRecord]

        init(database: AuthorizationDatabase) {
            version = AuthorizationFileFormat.currentVersion
            comment = AuthorizationFileFormat.comment
            servicesEnabled = database.servicesEnabled
            apps = database.apps
        }

        private enum CodingKeys: String, CodingKey { case version, comment, servicesEnabled, apps }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // A hand-written file may omit these; none of the defaults grants anything.
            version = try container.decodeIfPresent(Int.self, forKey: .version) ?? AuthorizationFileFormat.currentVersion
            comment = try container.decodeIfPresent(String.self, forKey: .comment)
            servicesEnabled = try container.decodeIfPresent(Bool.self, forKey: .servicesEnabled) ?? true
            apps = try container.decodeIfPresent([String: AppRecord].self, forKey: .apps) ?? [:]
        }
    }

    enum DecodeFailure: Error {
        case corrupt(String)
        case unsupportedVersion(Int)
    }

    static func encode(_ database: AuthorizationDatabase) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(makeFormatter(fractional: true).string(from: date))
        }
        var data = try encoder.encode(StoredFile(database: database))
        data.append(UInt8(ascii: "\n"))
        return data
    }

    static func decode(_ data: Data) throws(DecodeFailure) -> AuthorizationDatabase {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = makeFormatter(fractional: true).date(from: text)
                    ?? makeFormatter(fractional: false).date(from: text)
            else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an ISO 8601 date, found \"\(text)\"")
            }
            return date
        }
        let file: StoredFile
        do {
            file = try decoder.decode(StoredFile.self, from: data)
        } catch {
            throw .corrupt(describe(error))
        }
        guard file.version <= currentVersion else { throw .unsupportedVersion(file.version) }
        guard file.version >= 1 else { throw .corrupt("version \(file.version) is not valid") }
        return AuthorizationDatabase(servicesEnabled: file.servicesEnabled, apps: file.apps)
    }

    private static func makeFormatter(fractional: Bool) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = fractional ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter
    }

    /// DecodingError's own description is long and unhelpful; say what and where.
    private static func describe(_ error: any Error) -> String {
        func where_(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            let underlying = (context.underlyingError as NSError?).map { " (\($0.localizedDescription))" } ?? ""
            return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription + underlying
        }
        switch error {
        case DecodingError.dataCorrupted(let context): return where_(context)
        case DecodingError.keyNotFound(let key, let context): return "missing key \"\(key.stringValue)\" " + where_(context)
        case DecodingError.typeMismatch(_, let context): return "wrong type " + where_(context)
        case DecodingError.valueNotFound(_, let context): return "missing value " + where_(context)
        default: return "\(error)"
        }
    }
}
