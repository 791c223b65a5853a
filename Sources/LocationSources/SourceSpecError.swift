/// Why a source spec (`sim:city-drive`, `gpx:PATH`, `fixed:LAT,LON[,ACCURACY]`) was refused.
/// `description` is one line, fit for a command-line message.
public enum SourceSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `scheme:` prefix at all.
    case missingScheme(spec: String, validSchemes: [String])
    /// A scheme that is not known.
    case unknownScheme(String, validSchemes: [String])
    /// Nothing after the scheme (`sim:`, `gpx:`).
    case missingValue(scheme: String, usage: String)
    /// `sim:NAME` with a name that is not a built-in route.
    case unknownRoute(String, validRoutes: [String])
    /// The wrong number of comma-separated fields.
    case wrongFieldCount(spec: String, usage: String)
    /// A field that is not a plain finite decimal number.
    case malformedNumber(field: String, value: String)
    /// A latitude outside [-90, 90] or a longitude outside [-180, 180].
    case coordinateOutOfRange(field: String, value: Double)
    /// A negative horizontal accuracy.
    case negativeAccuracy(Double)
    /// A playback speed that is not a positive finite number.
    case badSpeed(Double)

    public var description: String {
        switch self {
        case .missingScheme(let spec, let valid):
            var message = "source '\(Self.clip(spec))' has no scheme; expected one of \(Self.list(valid))"
            if BuiltInRoute(name: spec) != nil { message += " (did you mean sim:\(spec)?)" }
            return message
        case .unknownScheme(let scheme, let valid):
            return "unknown source scheme '\(Self.clip(scheme))'; expected one of \(Self.list(valid))"
        case .missingValue(let scheme, let usage):
            return "source '\(scheme):' is missing its value; usage: \(usage)"
        case .unknownRoute(let name, let valid):
            return "unknown simulated route '\(Self.clip(name))'; built-in routes: \(valid.joined(separator: ", "))"
        case .wrongFieldCount(let spec, let usage):
            return "malformed source '\(Self.clip(spec))'; usage: \(usage)"
        case .malformedNumber(let field, let value):
            return "\(field) '\(Self.clip(value))' is not a number"
        case .coordinateOutOfRange(let field, let value):
            let range = field == "latitude" ? "-90 to 90" : "-180 to 180"
            return "\(field) \(value) is out of range (\(range))"
        case .negativeAccuracy(let value):
            return "accuracy \(value) must not be negative"
        case .badSpeed(let value):
            return "speed \(value) must be a positive finite number"
        }
    }

    private static func list(_ schemes: [String]) -> String {
        schemes.map { "\($0):" }.joined(separator: ", ")
    }

    /// Keeps user text in a message to one short line.
    private static func clip(_ text: String) -> String { GPXError.oneLine(text, limit: 80) }
}
