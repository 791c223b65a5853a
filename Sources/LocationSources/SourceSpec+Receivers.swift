import Foundation

// Parsing and making the real-receiver specs: `nmea:…` and `gpsd[://HOST[:PORT]]`.

extension SourceSpec {
    /// Where an `nmea:` spec reads from.
    public enum NMEAEndpoint: Sendable, Equatable {
        /// A path: a recorded log (a regular file) is replayed; a character device (serial port,
        /// pseudo-terminal) or a named pipe is read live. Decided when the source is made.
        case path(String)
        case tcp(host: String, port: Int)
        /// `-`
        case standardInput
    }

    /// The `?key=value&…` options of an `nmea:` spec; nil means not given.
    public struct NMEAOptions: Sendable, Equatable {
        /// `baud=N`, serial devices only (default `SerialPort.defaultBaudRate`, 4800).
        public var baud: Int?
        /// `pace=recorded|max`, recorded logs only (default recorded).
        public var pace: NMEAReplayPace?
        /// `checksum=optional` (true) or `checksum=required` (false, the default).
        public var allowMissingChecksum: Bool?
        /// `speed=N`, recorded logs at recorded pace only: recorded seconds per loop second (default 1).
        public var speed: Double?
        /// `standby=mtk|ublox`, serial devices only: the receiver's standby commands (default none:
        /// the receiver stays on while nobody needs it).
        public var standby: ReceiverStandby?
        /// `heading=also|only`: the receiver has a compass (HDT, THS, HDG), so the engine may run it
        /// for headings — beside positions (`also`) or as a compass alone (`only`, never run for
        /// locations). Without it, its heading sentences still reach apps while it runs for locations.
        public var heading: NMEAHeadingRole?

        public init(baud: Int? = nil, pace: NMEAReplayPace? = nil, allowMissingChecksum: Bool? = nil,
                    speed: Double? = nil, standby: ReceiverStandby? = nil, heading: NMEAHeadingRole? = nil) {
            self.baud = baud
            self.pace = pace
            self.allowMissingChecksum = allowMissingChecksum
            self.speed = speed
            self.standby = standby
            self.heading = heading
        }
    }

    /// What an `nmea:` source with a compass measures (`heading=also|only`).
    public enum NMEAHeadingRole: String, Sendable, Equatable {
        case also, only

        var measures: SourceDescriptor.Measurements {
            switch self {
            case .also: [.location, .heading]
            case .only: .heading
            }
        }
    }

    static let nmeaOptionNames = ["baud", "pace", "speed", "checksum", "standby", "heading"]

    /// `PATH`, `tcp://HOST:PORT` or `-`, then optional `?key=value&…`. Everything after the first `?`
    /// is options, so a path cannot contain `?`.
    static func parseNMEA(_ value: String, spec: String) throws(SourceSpecError) -> SourceSpec {
        let (base, query) = splitOptions(value)
        var options = NMEAOptions()
        if let query { options = try parseNMEAOptions(query) }
        let target = base.trimmingCharacters(in: .whitespaces)
        guard !target.isEmpty else { throw .missingValue(scheme: "nmea", usage: Scheme.nmea.usage) }
        let scalars = target.unicodeScalars
        let endpoint: NMEAEndpoint
        if target == "-" {
            endpoint = .standardInput
        } else if String(scalars.prefix(6)).lowercased() == "tcp://" {
            let address = try parseAddress(String(scalars.dropFirst(6)), defaultPort: nil, spec: spec,
                                           usage: "nmea:tcp://HOST:PORT")
            endpoint = .tcp(host: address.host, port: address.port)
        } else if target.range(of: "://", options: .literal) != nil {
            throw .malformedAddress(spec: spec, usage: Scheme.nmea.usage)
        } else {
            endpoint = .path(target)
        }
        switch endpoint {
        case .path:
            if options.baud != nil && options.pace != nil {
                throw .optionNotApplicable(option: "pace", target: "a serial device (baud= is given)")
            }
            if options.baud != nil && options.speed != nil {
                throw .optionNotApplicable(option: "speed", target: "a serial device (baud= is given)")
            }
            if options.standby != nil && options.pace != nil {
                throw .optionNotApplicable(option: "pace", target: "a serial device (standby= is given)")
            }
            if options.standby != nil && options.speed != nil {
                throw .optionNotApplicable(option: "speed", target: "a serial device (standby= is given)")
            }
            if options.pace == .max && options.speed != nil {
                throw .optionNotApplicable(option: "speed", target: "a log replayed as fast as possible (pace=max)")
            }
        case .tcp, .standardInput:
            let target = endpoint == .standardInput ? "standard input" : "a TCP stream"
            if options.baud != nil { throw .optionNotApplicable(option: "baud", target: target) }
            if options.pace != nil { throw .optionNotApplicable(option: "pace", target: target) }
            if options.speed != nil { throw .optionNotApplicable(option: "speed", target: target) }
            if options.standby != nil { throw .optionNotApplicable(option: "standby", target: target) }
        }
        return .nmea(endpoint, options)
    }

    private static func parseNMEAOptions(_ query: Substring) throws(SourceSpecError) -> NMEAOptions {
        var options = NMEAOptions()
        for (key, value) in try parseOptions(query, scheme: "nmea", valid: nmeaOptionNames) {
            switch key {
            case "baud":
                guard value.allSatisfy(\.isASCII), let baud = Int(value), SerialPort.speed(forBaud: baud) != nil else {
                    throw .badOption(option: "baud", value: value,
                                     expected: "one of " + SerialPort.supportedBaudRates.map(String.init).joined(separator: ", "))
                }
                options.baud = baud
            case "pace":
                guard let pace = NMEAReplayPace(rawValue: value.lowercased()) else {
                    throw .badOption(option: "pace", value: value, expected: "recorded or max")
                }
                options.pace = pace
            case "speed":
                options.speed = try parseSpeedOption(value)
            case "standby":
                guard let standby = ReceiverStandby(rawValue: value.lowercased()) else {
                    throw .badOption(option: "standby", value: value, expected: "mtk or ublox")
                }
                options.standby = standby
            case "heading":
                guard let role = NMEAHeadingRole(rawValue: value.lowercased()) else {
                    throw .badOption(option: "heading", value: value, expected: "also or only")
                }
                options.heading = role
            default:
                switch value.lowercased() {
                case "optional": options.allowMissingChecksum = true
                case "required": options.allowMissingChecksum = false
                default: throw .badOption(option: "checksum", value: value, expected: "optional or required")
                }
            }
        }
        return options
    }

    /// The value of a `gpsd:` spec: empty-after-`//` is not allowed; `//HOST[:PORT]`.
    static func parseGPSD(_ value: String, spec: String) throws(SourceSpecError) -> SourceSpec {
        // Scalars, not characters, as for the scheme's colon: "// \u{301}host" is spelled "//\u{301}host".
        guard value.unicodeScalars.starts(with: "//".unicodeScalars) else {
            throw .malformedAddress(spec: spec, usage: Scheme.gpsd.usage)
        }
        let rest = String(value.unicodeScalars.dropFirst(2))
        try refuseOptions(in: rest, scheme: "gpsd")
        let address = try parseAddress(rest, defaultPort: GPSDSource.defaultPort, spec: spec,
                                       usage: Scheme.gpsd.usage)
        return .gpsd(host: address.host, port: address.port)
    }

    /// `HOST:PORT`, `[IPV6]:PORT`, and without the port when there is a default. A trailing `/` is
    /// tolerated.
    static func parseAddress(_ text: String, defaultPort: Int?, spec: String,
                             usage: String) throws(SourceSpecError) -> (host: String, port: Int) {
        var text = Substring(text.trimmingCharacters(in: .whitespaces)).unicodeScalars
        if text.last == "/" { text = text.dropLast() }
        var host: Substring
        var portText: Substring?
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { throw .malformedAddress(spec: spec, usage: usage) }
            host = Substring(text[text.index(after: text.startIndex)..<close])
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { throw .malformedAddress(spec: spec, usage: usage) }
                portText = Substring(after.dropFirst())
            }
            guard host.unicodeScalars.contains(":") else { throw .malformedAddress(spec: spec, usage: usage) }
        } else {
            let parts = split(Substring(text), at: ":")
            guard parts.count <= 2 else { throw .ipv6NeedsBrackets(spec: spec) }
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
        }
        let forbidden = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "/?#@[]"))
        guard !host.isEmpty, host.rangeOfCharacter(from: forbidden) == nil else {
            throw .malformedAddress(spec: spec, usage: usage)
        }
        guard let portText else {
            guard let defaultPort else { throw .malformedAddress(spec: spec, usage: usage) }
            return (String(host), defaultPort)
        }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), (1...65535).contains(port) else {
            throw .badPort(String(portText))
        }
        return (String(host), port)
    }

    static func nmeaDescription(_ endpoint: NMEAEndpoint, _ options: NMEAOptions) -> String {
        var text = "nmea:"
        switch endpoint {
        case .path(let path): text += path
        case .tcp(let host, let port): text += "tcp://" + TCPOpener.hostPort(host, port)
        case .standardInput: text += "-"
        }
        var query: [String] = []
        if let baud = options.baud { query.append("baud=\(baud)") }
        if let pace = options.pace { query.append("pace=\(pace.rawValue)") }
        if let speed = options.speed { query.append("speed=\(speed)") }
        if let allow = options.allowMissingChecksum { query.append("checksum=\(allow ? "optional" : "required")") }
        if let standby = options.standby { query.append("standby=\(standby.rawValue)") }
        if let heading = options.heading { query.append("heading=\(heading.rawValue)") }
        return query.isEmpty ? text : text + "?" + query.joined(separator: "&")
    }

    /// The NMEA source for a spec: a path is looked at now (see `NMEAEndpoint.path`).
    func makeNMEASource(_ endpoint: NMEAEndpoint, _ options: NMEAOptions, speed: Double) throws -> any LocationSource {
        let allow = options.allowMissingChecksum ?? false
        let measures = options.heading?.measures ?? .location
        switch endpoint {
        case .standardInput:
            return NMEASource(input: .standardInput, name: description, allowMissingChecksum: allow, measures: measures)
        case .tcp(let host, let port):
            return NMEASource(input: .tcp(host: host, port: port), name: description, allowMissingChecksum: allow,
                              measures: measures)
        case .path(let given):
            let path = NSString(string: given).expandingTildeInPath
            let input = try Self.classify(path: path, options: options)
            return NMEASource(input: input, name: description, allowMissingChecksum: allow, speed: speed,
                              standby: options.standby, measures: measures)
        }
    }

    /// A regular file is a recorded log; a character device or a named pipe is a receiver; a missing
    /// path under `/dev` is a receiver not plugged in yet (the source retries until it appears).
    static func classify(path: String, options: NMEAOptions) throws(SourceSpecError) -> NMEAInput {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT && path.hasPrefix("/dev/") {
                if options.pace != nil { throw .optionNotApplicable(option: "pace", target: "a serial device") }
                if options.speed != nil { throw .optionNotApplicable(option: "speed", target: "a serial device") }
                return .device(path: path, baud: options.baud ?? SerialPort.defaultBaudRate)
            }
            throw .unusablePath(path, reason: errorText(code))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if options.baud != nil { throw .optionNotApplicable(option: "baud", target: "a recorded log (a regular file)") }
            if options.standby != nil {
                throw .optionNotApplicable(option: "standby", target: "a recorded log (a regular file)")
            }
            let fd = systemOpen(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .unusablePath(path, reason: errorText(errno)) }
            systemClose(fd)
            return .file(path: path, pace: options.pace ?? .recorded)
        case S_IFCHR, S_IFIFO:
            if options.pace != nil { throw .optionNotApplicable(option: "pace", target: "a device") }
            if options.speed != nil { throw .optionNotApplicable(option: "speed", target: "a device") }
            return .device(path: path, baud: options.baud ?? SerialPort.defaultBaudRate)
        default:
            throw .unusablePath(path, reason: "not a file or a device")
        }
    }
}
