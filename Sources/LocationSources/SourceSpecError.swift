/// Why a source spec (`sim:city-drive`, `gpx:PATH`, `fixed:LAT,LON[,ACCURACY]`, `nmea:…`, `gpsd…`) was refused.
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
    /// An option (`?key=value`) the scheme does not have.
    case unknownOption(scheme: String, option: String, validOptions: [String])
    /// The same option twice.
    case duplicateOption(String)
    /// An option with a value it does not take (`baud=9601`, `pace=fast`).
    case badOption(option: String, value: String, expected: String)
    /// An option that means nothing for this input (`baud` on a file or TCP, `pace` on a device).
    case optionNotApplicable(option: String, target: String)
    /// A `HOST:PORT` that cannot be read.
    case malformedAddress(spec: String, usage: String)
    /// An IPv6 address without brackets (`gpsd://::1:2947`).
    case ipv6NeedsBrackets(spec: String)
    /// A port that is not a number from 1 to 65535.
    case badPort(String)
    /// An `nmea:` path that does not exist, cannot be read, or is neither a file nor a device.
    case unusablePath(String, reason: String)
    /// A `beacon:` UUID that is not one (`E2C56DB5-DFFB-48D2-B060-D0F5A71096E0`).
    case malformedUUID(String)
    /// A `beacon:` major or minor outside 0–65535, or a measured power outside −128–127.
    case beaconValueOutOfRange(field: String, value: String)
    /// `beacon:` specs without a `sim:` or `fixed:` source to place the simulated device.
    case beaconWithoutPosition

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
        case .unknownOption(let scheme, let option, let valid):
            let expected = valid.isEmpty ? "\(scheme) takes no options" : "expected " + valid.joined(separator: ", ")
            return "unknown \(scheme): option '\(Self.clip(option))'; \(expected)"
        case .duplicateOption(let option):
            return "option '\(option)' is given twice"
        case .badOption(let option, let value, let expected):
            return "\(option) '\(Self.clip(value))' is not valid; expected \(expected)"
        case .optionNotApplicable(let option, let target):
            return "option '\(option)' does not apply to \(target)"
        case .malformedAddress(let spec, let usage):
            return "malformed source '\(Self.clip(spec))'; usage: \(usage)"
        case .ipv6NeedsBrackets(let spec):
            return "malformed source '\(Self.clip(spec))'; write an IPv6 address in brackets, e.g. gpsd://[::1]:2947"
        case .badPort(let value):
            return "port '\(Self.clip(value))' is not a number from 1 to 65535"
        case .unusablePath(let path, let reason):
            return "cannot use NMEA source \(Self.clip(path)): \(Self.clip(reason))"
        case .malformedUUID(let value):
            return "'\(Self.clip(value))' is not a UUID (e.g. E2C56DB5-DFFB-48D2-B060-D0F5A71096E0)"
        case .beaconValueOutOfRange(let field, let value):
            let range = field == "measured power" ? "-128 to 127 dBm" : "0 to 65535"
            return "beacon \(field) '\(Self.clip(value))' is not a whole number from \(range)"
        case .beaconWithoutPosition:
            return "beacon: sources need a simulated position to be heard from; add sim:NAME or fixed:LAT,LON (e.g. fixed:48.85,2.35;beacon:…)"
        }
    }

    private static func list(_ schemes: [String]) -> String {
        schemes.map { "\($0):" }.joined(separator: ", ")
    }

    /// Keeps user text in a message to one short line.
    private static func clip(_ text: String) -> String { GPXError.oneLine(text, limit: 80) }
}
