import Foundation

/// A location source named on the command line or in configuration: `SCHEME:VALUE`.
///
/// | Spec | Source |
/// |---|---|
/// | `sim:NAME[?speed=N]` | `SimulatedRouteSource` on a built-in route (`BuiltInRoute`) |
/// | `gpx:PATH[@SPEED][?speed=N]` | `GPXReplaySource` replaying a GPX file; untimed points at SPEED m/s |
/// | `fixed:LAT,LON[,ACCURACY]` | `FixedSource` (accuracy in metres, default 5) |
/// | `nmea:PATH[?pace=max]`, `nmea:PATH[?speed=N]` | `NMEASource` replaying a recorded NMEA log (a regular file) |
/// | `nmea:/dev/ttyUSB0[?baud=N&standby=mtk\|ublox]` | `NMEASource` on a serial receiver (a character device or named pipe; baud 4800 by default; `standby=` names the receiver's standby commands, sent when no one needs it) |
/// | `nmea:tcp://HOST:PORT` | `NMEASource` on NMEA served over TCP |
/// | `nmea:-` | `NMEASource` on standard input |
/// | `gpsd`, `gpsd://HOST[:PORT]` | `GPSDSource` (default 127.0.0.1:2947; IPv6 in brackets) |
/// | `compass:DEGREES` | `CompassSource`: a simulated compass reading a fixed magnetic heading (headings only) |
/// | `iio`, `iio:/sys/bus/iio/devices/iio:deviceN[?mode=buffered]` | `IIOMagnetometerSource`: headings from a magnetometer (the first one found, or that device), sysfs polled or buffered |
/// | `beacon:UUID,MAJOR,MINOR,POWER@LAT,LON` | a simulated iBeacon at a point, advertising POWER dBm at 1 m; every `beacon:` of a configuration is heard by one `SimulatedBeaconScanner` at the position of the configuration's first `sim:` or `fixed:` source (``makeSources(_:speed:skipping:)``) |
/// | `sensorproxy` | `SensorProxyCompassSource`: headings from iio-sensor-proxy's compass over D-Bus (system bus) |
/// | `bluez`, `bluez:hci0` | `BlueZBeaconSource`: iBeacons seen by BlueZ's LE discovery over D-Bus (the first adapter, or that one) |
///
/// Options follow the value after a `?` and are joined with `&` (`nmea:drive.nmea?speed=60&checksum=optional`),
/// so a path cannot contain `?`. `speed=N` replays `sim:`, `gpx:` and recorded `nmea:` logs N times
/// as fast as the engine's clock (simulated seconds per second; fix timestamps stay in simulated
/// time); `gpx:`'s `@SPEED` is something else, the travel speed in m/s for points without times.
/// `nmea:` specs also take `?checksum=optional` to accept sentences without a checksum, and
/// `?heading=also|only` for a receiver with a compass (run for headings too) or a compass alone.
///
/// To add a scheme: a case in `Scheme` (with its usage and summary), a case here, a branch in
/// `init(_:)`, `description` and `makeSource(speed:)`. Nothing else depends on the list.
public enum SourceSpec: Sendable, Equatable, CustomStringConvertible {
    /// `speed`: simulated seconds per loop second (`?speed=N`; nil: not given).
    case simulation(BuiltInRoute, speed: Double? = nil)
    /// `travelSpeed`: metres per second for routes, waypoints and points without times (nil: the default);
    /// `speed`: simulated seconds per loop second (`?speed=N`; nil: not given).
    case gpx(path: String, travelSpeed: Double? = nil, speed: Double? = nil)
    case fixed(latitude: Double, longitude: Double, horizontalAccuracy: Double)
    case nmea(NMEAEndpoint, NMEAOptions = NMEAOptions())
    case gpsd(host: String = GPSDSource.defaultHost, port: Int = GPSDSource.defaultPort)
    /// A simulated compass; `magneticHeading` in degrees, normalized to 0 ..< 360.
    case compass(magneticHeading: Double)
    /// `devicePath`: the sysfs directory of the magnetometer, nil to discover the first one;
    /// `buffered`: read records from `/dev/iio:deviceN` instead of polling sysfs.
    case iio(devicePath: String? = nil, buffered: Bool = false)
    /// A simulated beacon; heard through ``makeSources(_:speed:skipping:)`` only.
    case beacon(SimulatedBeacon)

    /// iio-sensor-proxy's compass on the system bus.
    case sensorProxy
    /// BlueZ's LE discovery; `adapter`: the adapter's name (`hci0`), nil for the first one.
    case bluez(adapter: String? = nil)

    /// The schemes a spec can start with.
    public enum Scheme: String, CaseIterable, Sendable {
        case sim, gpx, fixed, nmea, gpsd, compass, iio, beacon, sensorproxy, bluez

        /// How to write a spec of this scheme.
        public var usage: String {
            switch self {
            case .sim: "sim:NAME[?speed=N]"
            case .gpx: "gpx:PATH[@SPEED][?speed=N]"
            case .fixed: "fixed:LAT,LON[,ACCURACY]"
            case .nmea: "nmea:PATH|tcp://HOST:PORT|-[?baud=N&standby=mtk|ublox&pace=max&speed=N&checksum=optional&heading=also|only]"
            case .gpsd: "gpsd[://HOST[:PORT]]"
            case .compass: "compass:DEGREES"
            case .iio: "iio[:DEVICE][?mode=polled|buffered]"
            case .beacon: "beacon:UUID,MAJOR,MINOR,POWER@LAT,LON"
            case .sensorproxy: "sensorproxy"
            case .bluez: "bluez[:ADAPTER]"
            }
        }

        /// One line for help.
        public var summary: String {
            switch self {
            case .sim: "a built-in simulated route, repeated forever (speed=N: N times as fast)"
            case .gpx: "replay a GPX file (tracks at recorded pace; routes and waypoints at SPEED m/s, default \(GPXReplaySource.defaultTravelSpeed); speed=N: N times as fast)"
            case .fixed: "a fixed point; accuracy in metres, default \(Int(SourceSpec.defaultFixedAccuracy))"
            case .nmea: "an NMEA 0183 receiver: a serial device (baud default \(SerialPort.defaultBaudRate)), a TCP stream, standard input (-), or a log file replayed (at recorded pace, speed=N: N times as fast; pace=max: as fast as possible)"
            case .gpsd: "the gpsd daemon (default \(GPSDSource.defaultHost):\(GPSDSource.defaultPort)), watched only while locations are needed"
            case .compass: "a simulated compass reading a fixed magnetic heading (combine with a location source: fixed:LAT,LON;compass:DEGREES)"
            case .beacon: "a simulated iBeacon at LAT,LON advertising POWER dBm at 1 m, heard from the position of a sim: or fixed: source given with it (sim:walk;beacon:…); repeatable"
            case .iio: "headings from a Linux IIO magnetometer (the first under \(IIODiscovery.defaultRoot), or DEVICE), tilt compensated with an accelerometer when there is one; turn the device through all orientations to calibrate it"
            case .sensorproxy: "headings from iio-sensor-proxy's compass (net.hadess.SensorProxy on the system bus), claimed only while headings are needed"
            case .bluez: "iBeacons seen by BlueZ (org.bluez on the system bus) on the first adapter or ADAPTER (hci0), scanning only while beacons are ranged or monitored"
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
    ///   number, a coordinate out of range, a negative accuracy, or an option the scheme does not
    ///   take or with a bad value (`speed=0`). A GPX path is not checked here: `makeSource` reads the file.
    public init(_ text: String) throws(SourceSpecError) {
        let valid = Scheme.allCases.map(\.rawValue)
        if text.trimmingCharacters(in: .whitespaces).lowercased() == "gpsd" {
            self = .gpsd()
            return
        }
        if text.trimmingCharacters(in: .whitespaces).lowercased() == "iio" {
            self = .iio()
            return
        }
        if text.trimmingCharacters(in: .whitespaces).lowercased() == "sensorproxy" {
            self = .sensorProxy
            return
        }
        if text.trimmingCharacters(in: .whitespaces).lowercased() == "bluez" {
            self = .bluez()
            return
        }
        // The colon is found among the Unicode scalars, not the characters: a value that starts with a combining
        // mark ("iio: \u{65D}…") joins the colon into one character once the spelling drops the space after it.
        let scalars = text.unicodeScalars
        guard let colon = scalars.firstIndex(of: ":") else {
            throw .missingScheme(spec: text, validSchemes: valid)
        }
        let schemePart = String(scalars[..<colon])
        let value = String(scalars[scalars.index(after: colon)...])
        guard let scheme = Scheme(rawValue: schemePart.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw .unknownScheme(schemePart, validSchemes: valid)
        }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .missingValue(scheme: scheme.rawValue, usage: scheme.usage) }
        switch scheme {
        case .sim:
            self = try Self.parseSimulation(trimmed)
        case .gpx:
            self = try Self.parseGPX(trimmed)
        case .fixed:
            self = try Self.parseFixed(trimmed, spec: text)
        case .nmea:
            self = try Self.parseNMEA(trimmed, spec: text)
        case .gpsd:
            self = try Self.parseGPSD(trimmed, spec: text)
        case .compass:
            self = try Self.parseCompass(trimmed)
        case .iio:
            self = try Self.parseIIO(trimmed)
        case .beacon:
            self = try Self.parseBeacon(trimmed, spec: text)
        case .sensorproxy:
            throw .unknownOption(scheme: "sensorproxy", option: trimmed, validOptions: [])
        case .bluez:
            self = try Self.parseBlueZ(trimmed)
        }
    }

    /// `NAME[?speed=N]`.
    private static func parseSimulation(_ value: String) throws(SourceSpecError) -> SourceSpec {
        let (base, query) = splitOptions(value)
        let name = base.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw .missingValue(scheme: "sim", usage: Scheme.sim.usage) }
        guard let route = BuiltInRoute(name: name.lowercased()) else {
            throw .unknownRoute(name, validRoutes: BuiltInRoute.allCases.map(\.name))
        }
        return .simulation(route, speed: try parseReplaySpeed(query, scheme: "sim"))
    }

    /// `PATH[@SPEED][?speed=N]`: the `@` suffix counts only when it is a number, so a path may contain `@`.
    private static func parseGPX(_ value: String) throws(SourceSpecError) -> SourceSpec {
        let (base, query) = splitOptions(value)
        let speed = try parseReplaySpeed(query, scheme: "gpx")
        let text = base.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw .missingValue(scheme: "gpx", usage: Scheme.gpx.usage) }
        let scalars = text.unicodeScalars
        guard let at = scalars.lastIndex(of: "@"),
              let travelSpeed = parseDecimal(Substring(scalars[scalars.index(after: at)...])) else {
            return .gpx(path: text, speed: speed)
        }
        guard travelSpeed.isFinite, travelSpeed > 0 else { throw .badSpeed(travelSpeed) }
        return .gpx(path: String(scalars[..<at]).trimmingCharacters(in: .whitespaces), travelSpeed: travelSpeed,
                    speed: speed)
    }

    /// The options of `sim:` and `gpx:`: `speed=N` alone (nil when the query names none).
    private static func parseReplaySpeed(_ query: Substring?, scheme: String) throws(SourceSpecError) -> Double? {
        guard let query else { return nil }
        var speed: Double?
        for item in try parseOptions(query, scheme: scheme, valid: ["speed"]) {
            speed = try parseSpeedOption(item.value)
        }
        return speed
    }

    private static func parseFixed(_ value: String, spec: String) throws(SourceSpecError) -> SourceSpec {
        try refuseOptions(in: value, scheme: "fixed")
        let fields = split(Substring(value), at: ",")
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

    /// `DEGREES`: any finite number of degrees, normalized to 0 ..< 360.
    private static func parseCompass(_ value: String) throws(SourceSpecError) -> SourceSpec {
        try refuseOptions(in: value, scheme: "compass")
        guard let degrees = parseDecimal(value), degrees.isFinite else {
            throw .malformedNumber(field: "heading", value: value)
        }
        let normalized = degrees.truncatingRemainder(dividingBy: 360)
        return .compass(magneticHeading: normalized < 0 ? normalized + 360 : normalized + 0)
    }

    public var scheme: Scheme {
        switch self {
        case .simulation: .sim
        case .gpx: .gpx
        case .fixed: .fixed
        case .nmea: .nmea
        case .gpsd: .gpsd
        case .compass: .compass
        case .iio: .iio
        case .beacon: .beacon
        case .sensorProxy: .sensorproxy
        case .bluez: .bluez
        }
    }

    /// The spec in its canonical spelling; parsing it gives this value back.
    public var description: String {
        switch self {
        case .simulation(let route, let speed): "sim:\(route.name)" + Self.speedQuery(speed)
        case .gpx(let path, let travelSpeed, let speed):
            "gpx:\(path)" + (travelSpeed.map { "@\($0)" } ?? "") + Self.speedQuery(speed)
        case .fixed(let latitude, let longitude, let accuracy): "fixed:\(latitude),\(longitude),\(accuracy)"
        case .nmea(let endpoint, let options): Self.nmeaDescription(endpoint, options)
        case .gpsd(let host, let port): "gpsd://" + TCPOpener.hostPort(host, port)
        case .compass(let heading): "compass:\(heading)"
        case .iio(let devicePath, let buffered): Self.iioDescription(devicePath: devicePath, buffered: buffered)
        case .beacon(let beacon): Self.beaconDescription(beacon)
        case .sensorProxy: "sensorproxy"
        case .bluez(let adapter): "bluez" + (adapter.map { ":" + $0 } ?? "")
        }
    }

    /// Makes the source.
    ///
    /// - Parameter speed: simulated seconds per loop second for simulated routes, GPX replays and NMEA
    ///   logs replayed at recorded pace (a fixed point and live receivers ignore it). Nil: the spec's
    ///   own `speed=` (``speed``), else 1. A speed given here wins over the spec's.
    /// - Throws: `SourceSpecError.badSpeed` when `speed` is not a positive finite number; `GPXError` when
    ///   the GPX file cannot be used; `SourceSpecError.unusablePath` or `.optionNotApplicable` when an
    ///   `nmea:` path is missing, unreadable, or not what its options say;
    ///   `SourceSpecError.beaconWithoutPosition` for `beacon:`, which needs the other specs
    ///   (``makeSources(_:speed:skipping:)``).
    public func makeSource(speed: Double? = nil) throws -> any LocationSource {
        let speed = speed ?? self.speed ?? 1
        guard speed.isFinite, speed > 0 else { throw SourceSpecError.badSpeed(speed) }
        switch self {
        case .simulation(let route, _):
            return SimulatedRouteSource(route: route, speed: speed)
        case .gpx(let path, let travelSpeed, _):
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
        case .compass(let heading):
            return CompassSource(magneticHeading: heading, name: description)
        case .iio(let devicePath, let buffered):
            return IIOMagnetometerSource(devicePath: devicePath, mode: buffered ? .buffered() : .polled, name: description)
        case .beacon:
            throw SourceSpecError.beaconWithoutPosition
        case .sensorProxy:
            return SensorProxyCompassSource(name: description)
        case .bluez(let adapter):
            return BlueZBeaconSource(adapter: adapter, name: description)
        }
    }
}
