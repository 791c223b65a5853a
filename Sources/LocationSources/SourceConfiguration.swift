import Foundation
import LocationCore

/// Which sources an app's in-process engine (and `locationd`, without `--source`) runs, so that an app using
/// `CLLocationManager` gets real fixes without code changes.
///
/// First match wins:
/// 1. `CORELOCATION_SOURCE`: one spec, or several separated by `;`
///    (e.g. `gpsd;nmea:/dev/ttyUSB0?baud=9600`);
/// 2. the user's file `$XDG_CONFIG_HOME/corelocation/sources` (default `~/.config/corelocation/sources`);
/// 3. the system's file `/etc/corelocation/sources`.
///
/// A file holds one spec per line; blank lines and `#` comments are ignored. With several
/// sources the engine runs the cheapest one that satisfies current demand. Replays honour their
/// spec's `?speed=N` (e.g. `CORELOCATION_SOURCE='gpx:drive.gpx?speed=60'`: an hour-long recording
/// plays in a minute, fixes stamped in simulated time).
public struct SourceConfiguration: Sendable, Equatable {
    public static let environmentVariable = "CORELOCATION_SOURCE"
    public static let systemFile = URL(fileURLWithPath: "/etc/corelocation/sources")

    public var specs: [SourceSpec]
    /// Where the specs came from, for messages.
    public var origin: String

    public init(specs: [SourceSpec], origin: String) {
        self.specs = specs
        self.origin = origin
    }

    public static func userFile(environment: [String: String]) -> URL {
        XDGDirectories.configHome(environment: environment).appendingPathComponent("corelocation/sources")
    }

    /// The configured sources, or nil when nothing is configured.
    ///
    /// - Throws: `SourceConfigurationError` naming the origin and line of a spec that does not parse;
    ///   a broken configuration is an error, never silently replaced by another source.
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        userFile: URL? = nil, systemFile: URL = SourceConfiguration.systemFile
    ) throws(SourceConfigurationError) -> SourceConfiguration? {
        if let value = environment[environmentVariable], !value.trimmingCharacters(in: .whitespaces).isEmpty {
            let entries = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return try parse(entries.map { ($0, nil) }, origin: environmentVariable)
        }
        for file in [userFile ?? Self.userFile(environment: environment), systemFile] {
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            let text: String
            do {
                text = try String(contentsOf: file, encoding: .utf8)
            } catch {
                throw SourceConfigurationError(origin: file.path, line: nil, reason: "cannot read it: \(error.localizedDescription)")
            }
            return try parse(fileText: text, origin: file.path)
        }
        return nil
    }

    /// Parses a sources file's contents: one spec per line, blank lines and `#` comments ignored.
    ///
    /// - Throws: `SourceConfigurationError` naming `origin` and the line of the first spec that does
    ///   not parse, or saying the file names no source.
    public static func parse(fileText text: String, origin: String) throws(SourceConfigurationError) -> SourceConfiguration {
        var entries: [(String, Int?)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let spec = content.trimmingCharacters(in: .whitespaces)
            if !spec.isEmpty { entries.append((spec, index + 1)) }
        }
        guard !entries.isEmpty else {
            throw SourceConfigurationError(origin: origin, line: nil, reason: "names no source")
        }
        return try parse(entries, origin: origin)
    }

    private static func parse(_ entries: [(String, Int?)], origin: String) throws(SourceConfigurationError) -> SourceConfiguration {
        var specs: [SourceSpec] = []
        for (text, line) in entries {
            do {
                specs.append(try SourceSpec(text))
            } catch {
                throw SourceConfigurationError(origin: origin, line: line, reason: error.description)
            }
        }
        return SourceConfiguration(specs: specs, origin: origin)
    }
}

/// A source configuration that cannot be used, with where and why.
public struct SourceConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var origin: String
    public var line: Int?
    public var reason: String

    public init(origin: String, line: Int?, reason: String) {
        self.origin = origin
        self.line = line
        self.reason = reason
    }

    public var description: String {
        "\(origin)\(line.map { ":\($0)" } ?? ""): \(reason)"
    }
}
