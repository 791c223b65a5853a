import Foundation

/// A location source named on the command line or in configuration: `SCHEME:VALUE`.
///
/// | Spec | Source |
/// |---|---|
/// | `sim:NAME` | `SimulatedRouteSource` on a built-in route (`BuiltInRoute`) |
/// | `gpx:PATH[@SPEED]` | `GPXReplaySource` replaying a GPX file; untimed points at SPEED m/s |
/// | `fixed:LAT,LON[,ACCURACY]` | `FixedSource` (accuracy in metres, default 5) |
/// | `nmea:PATH[?pace=max]` | `NMEASource` replaying a recorded NMEA log (a regular file) |
/// | `nmea:/dev/ttyUSB0[?baud=N]` | `NMEASource` on a serial receiver (a character device or named pipe; baud 4800 by default) |
/// | `nmea:tcp://HOST:PORT` | `NMEASource` on NMEA served over TCP |
/// | `nmea:-` | `NMEASource` on standard input |
/// | `gpsd`, `gpsd://HOST[:PORT]` | `GPSDSource` (default 127.0.0.1:2947; IPv6 in brackets) |
///
/// `nmea:` specs take `?checksum=optional` to accept sentences without a checksum; options are
/// joined with `&`, so a path cannot contain `?`.
///
/// To add a scheme: a case in `Scheme` (with its usage and summary), a case here, a branch in
/// `init(_:)`, `description` and `makeSource(speed:)`. Nothing else depends on the list.
public enum SourceSpec: Sendable, Equatable, CustomStringConvertible {
    case simulation(BuiltInRoute)
    /// `travelSpeed`: metres per second for routes, waypoints and points without times (nil: the default).
    case gpx(path: String, travelSpeed: Double? = nil)
    case fixed(latitude: Double, longitude: Double, horizontalAccuracy: Double)
    case nmea(NMEAEndpoint, NMEAOptions = NMEAOptions())
    case gpsd(host: String = GPSDSource.defaultHost, port: Int = GPSDSource.defaultPort)

    /// The schemes a spec can start with.
    public enum Scheme: String, CaseIterable, Sendable {
        case sim, gpx, fixed, nmea, gpsd

        /// How to write a spec of this scheme.
        public var usage: String {
            switch self {
            case .sim: "sim:NAME"
            case .gpx: "gpx:PATH[@SPEED]"
            case .fixed: "fixed:LAT,LON[,ACCURACY]"
            case .nmea: "nmea:PATH|tcp://HOST:PORT|-[?baud=N&pace=max&checksum=optional]"
            case .gpsd: "gpsd[://HOST[:PORT]]"
            }
        }

        /// One line for help.
        public var summary: String {
            switch self {
            case .sim: "a built-in simulated route, repeated forever"
            case .gpx: "replay a GPX file (tracks at recorded pace; routes and waypoints at SPEED m/s, default \(GPXReplaySource.defaultTravelSpeed))"
            case .fixed: "a fixed point; accuracy in metres, default \(Int(SourceSpec.defaultFixedAccuracy))"
            case .nmea: "an NMEA 0183 receiver: a serial device (baud default \(SerialPort.defaultBaudRate)), a TCP stream, standard input (-), or a log file replayed (at recorded pace; pace=max: as fast as possible)"
            case .gpsd: "the gpsd daemon (default \(GPSDSource.defaultHost):\(GPSDSource.defaultPort)), watched only while locations are needed"
            }
        }
    }

    /// Horizontal accuracy of `fixed:` when none is given, metres.
    public static let defaultFixedAccuracy = 5.0

    /// The built-in route names with a one-line description each, for help.
    public static var routes: [(name: String, summary: String)] {
        BuiltInRoute.allCases.map { ($0.name, $0.summary) }
    }

    /// Parses a spec. The scheme is case-insensitive; whitespace around numbers is ignored.
    ///
    /// - Throws: `SourceSpecError` for an unknown or missing scheme, an unknown route, a malformed
    ///   number, a coordinate out of range or a negative accuracy. A GPX path is not checked here:
    ///   `makeSource` reads the file.
    public init(_ text: String) throws(SourceSpecError) {
        let valid = Scheme.allCases.map(\.rawValue)
        if text.trimmingCharacters(in: .whitespaces).lowercased() == "gpsd" {
            self = .gpsd()
            return
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw .missingScheme(spec: text, validSchemes: valid)
        }
        let schemeText = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = text[text.index(after: colon)...]
        guard let scheme = Scheme(rawValue: schemeText) else {
            throw .unknownScheme(String(text[..<colon]), validSchemes: valid)
        }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .missingValue(scheme: scheme.rawValue, usage: scheme.usage) }
        switch scheme {
        case .sim:
            guard let route = BuiltInRoute(name: trimmed.lowercased()) else {
                throw .unknownRoute(trimmed, validRoutes: BuiltInRoute.allCases.map(\.name))
            }
            self = .simulation(route)
        case .gpx:
            self = try Self.parseGPX(trimmed)
        case .fixed:
            self = try Self.parseFixed(trimmed, spec: text)
        case .nmea:
            self = try Self.parseNMEA(trimmed, spec: text)
        case .gpsd:
            self = try Self.parseGPSD(trimmed, spec: text)
        }
    }

    /// `PATH@SPEED`: the suffix counts only when it is a number, so a path may contain `@`.
    private static func parseGPX(_ value: String) throws(SourceSpecError) -> SourceSpec {
        guard let at = value.lastIndex(of: "@"), let speed = parseDecimal(value[value.index(after: at)...]) else {
            return .gpx(path: value)
        }
        guard speed.isFinite, speed > 0 else { throw .badSpeed(speed) }
        return .gpx(path: String(value[..<at]).trimmingCharacters(in: .whitespaces), travelSpeed: speed)
    }

    private static func parseFixed(_ value: String, spec: String) throws(SourceSpecError) -> SourceSpec {
        let fields = value.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3 else {
            throw .wrongFieldCount(spec: spec, usage: Scheme.fixed.usage)
        }
        let names = ["latitude", "longitude", "accuracy"]
        var numbers: [Double] = []
        for (index, field) in fields.enumerated() {
            guard let number = parseDecimal(field) else {
                throw .malformedNumber(field: names[index], value: field.trimmingCharacters(in: .whitespaces))
            }
            numbers.append(number)
        }
        guard abs(numbers[0]) <= 90 else { throw .coordinateOutOfRange(field: "latitude", value: numbers[0]) }
        guard abs(numbers[1]) <= 180 else { throw .coordinateOutOfRange(field: "longitude", value: numbers[1]) }
        let accuracy = numbers.count == 3 ? numbers[2] : defaultFixedAccuracy
        guard accuracy >= 0 else { throw .negativeAccuracy(accuracy) }
        return .fixed(latitude: numbers[0], longitude: numbers[1], horizontalAccuracy: accuracy)
    }

    public var scheme: Scheme {
        switch self {
        case .simulation: .sim
        case .gpx: .gpx
        case .fixed: .fixed
        case .nmea: .nmea
        case .gpsd: .gpsd
        }
    }

    /// The spec in its canonical spelling; parsing it gives this value back.
    public var description: String {
        switch self {
        case .simulation(let route): "sim:\(route.name)"
        case .gpx(let path, let travelSpeed): "gpx:\(path)" + (travelSpeed.map { "@\($0)" } ?? "")
        case .fixed(let latitude, let longitude, let accuracy): "fixed:\(latitude),\(longitude),\(accuracy)"
        case .nmea(let endpoint, let options): Self.nmeaDescription(endpoint, options)
        case .gpsd(let host, let port): "gpsd://" + TCPOpener.hostPort(host, port)
        }
    }

    /// Makes the source.
    ///
    /// - Parameter speed: simulated seconds per loop second for simulated routes, GPX replays and NMEA
    ///   logs replayed at recorded pace (a fixed point and live receivers ignore it).
    /// - Throws: `SourceSpecError.badSpeed` when `speed` is not a positive finite number; `GPXError` when
    ///   the GPX file cannot be used; `SourceSpecError.unusablePath` or `.optionNotApplicable` when an
    ///   `nmea:` path is missing, unreadable, or not what its options say.
    public func makeSource(speed: Double = 1) throws -> any LocationSource {
        guard speed.isFinite, speed > 0 else { throw SourceSpecError.badSpeed(speed) }
        switch self {
        case .simulation(let route):
            return SimulatedRouteSource(route: route, speed: speed)
        case .gpx(let path, let travelSpeed):
            let expanded = NSString(string: path).expandingTildeInPath
            let document = try GPXDocument(contentsOfFile: expanded)
            return GPXReplaySource(
                document: document, name: description,
                travelSpeed: travelSpeed ?? GPXReplaySource.defaultTravelSpeed, speed: speed)
        case .fixed(let latitude, let longitude, let accuracy):
            return FixedSource(latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy, name: description)
        case .nmea(let endpoint, let options):
            return try makeNMEASource(endpoint, options, speed: speed)
        case .gpsd(let host, let port):
            return GPSDSource(host: host, port: port, name: description)
        }
    }
}
