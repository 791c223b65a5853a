import Foundation

/// Why a GPX file could not be used. `description` is one line, fit for a command-line message.
public struct GPXError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The file could not be read (missing, a directory, no permission...).
        case unreadable(String)
        /// The file is empty or only whitespace.
        case empty
        /// Not well-formed XML (also binary data); position of the first problem.
        case malformedXML(line: Int, column: Int, message: String)
        /// Well-formed XML whose root element is not `gpx`.
        case notGPX(rootElement: String)
        /// A point without its `lat` or `lon` attribute.
        case missingAttribute(element: String, attribute: String, line: Int, column: Int)
        /// A `lat` or `lon` that is not a number or out of range.
        case invalidCoordinate(element: String, attribute: String, value: String, line: Int, column: Int)
        /// An `ele` that is not a finite number, or a `time` that is not an ISO 8601 date-time.
        case invalidValue(element: String, value: String, line: Int, column: Int)
        /// No track point, route point or waypoint at all.
        case noPoints
    }

    /// The file, or the name given for in-memory data; nil when none was given.
    public var path: String?
    public var reason: Reason

    public init(path: String?, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let source = path.map { Self.oneLine($0, limit: 200) } ?? "GPX data"
        switch reason {
        case .unreadable(let why):
            return "cannot read GPX file \(source): \(Self.oneLine(why, limit: 200))"
        case .empty:
            return "\(source): the file is empty"
        case .malformedXML(let line, let column, let message):
            return "\(source): malformed XML at line \(line), column \(column): \(Self.oneLine(message, limit: 200))"
        case .notGPX(let root):
            return "\(source): not a GPX file (the root element is <\(Self.oneLine(root, limit: 60))>, expected <gpx>)"
        case .missingAttribute(let element, let attribute, let line, let column):
            return "\(source): line \(line), column \(column): <\(element)> has no \(attribute) attribute"
        case .invalidCoordinate(let element, let attribute, let value, let line, let column):
            let range = attribute == "lat" ? "-90 to 90" : "-180 to 180"
            return "\(source): line \(line), column \(column): invalid \(attribute)=\"\(Self.oneLine(value, limit: 40))\" on <\(element)> (expected a number from \(range))"
        case .invalidValue(let element, let value, let line, let column):
            let expected = element == "time"
                ? "an ISO 8601 date-time such as 2024-05-04T09:15:02Z"
                : "a finite decimal number"
            return "\(source): line \(line), column \(column): invalid <\(element)> \"\(Self.oneLine(value, limit: 40))\" (expected \(expected))"
        case .noPoints:
            return "\(source): no track points, route points or waypoints"
        }
    }

    /// Text made safe for a one-line message: control characters become spaces, long text is cut.
    static func oneLine(_ text: String, limit: Int) -> String {
        var cleaned = String(text.unicodeScalars.map { scalar -> Character in
            scalar.properties.generalCategory == .control ? " " : Character(scalar)
        })
        if cleaned.count > limit { cleaned = String(cleaned.prefix(limit)) + "…" }
        return cleaned
    }

    /// A short reason why `path` could not be read.
    static func describeReadFailure(path: String, error: any Error) -> String {
        var isDirectory: ObjCBool = false
        let manager = FileManager.default
        if !manager.fileExists(atPath: path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "it is a directory" }
        if !manager.isReadableFile(atPath: path) { return "permission denied" }
        return error.localizedDescription
    }
}
