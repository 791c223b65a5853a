import Foundation
import LocationCore
import LocationNMEA

/// Positions from an NMEA 0183 receiver: a serial device, a TCP stream, standard input, or a recorded
/// log replayed. Bytes go through `LocationNMEA`'s `NMEADecoder`; each completed epoch becomes a `.fix`
/// (see `NMEAFixConversion` for the fields and accuracies) or a `.noFix`.
///
/// - **Live inputs** (`.device`, `.tcp`, `.standardInput`): fixes carry the receiver's UTC time (its
///   time of day on today's UTC date until it has sent a date), `isSimulated` false and
///   `isProducedByAccessory` true. A device that disappears or a connection that drops yields
///   `.noFix(reason:)` and the stream is reopened with `backoff` (0.5 s doubling to 10 s by default);
///   silence for `silenceTimeout` seconds also yields `.noFix`. The end of standard input is final:
///   `.finished`. The playback `speed` means nothing here.
/// - **Files** (`.file`): replayed at the recorded pace times `speed`, or as fast as possible, with
///   timestamps re-based to the moment the replay starts, `isSimulated` true; then `.finished`. See
///   `NMEAFileReplay`.
///
/// The descriptor's typical accuracy is 5 m; its power cost models a GNSS receiver (100 mW, as
/// `GPSDSource`) for live inputs and nothing for replays, like GPX replays.
public final class NMEASource: LocationSource {
    /// Typical 1σ horizontal accuracy of a consumer GNSS receiver in the open, metres.
    public static let typicalAccuracy = 5.0
    /// Model figure for a live receiver, milliwatts (a GNSS module tracking, plus its serial link).
    public static let powerCost = 100.0
    /// Default reconnection delays for devices and TCP.
    public static let defaultBackoff = Backoff(initial: 0.5, maximum: 10)
    /// Seconds without an epoch after which a live input reports `.noFix` (receivers send at least 1 Hz).
    public static let defaultSilenceTimeout: TimeInterval = 5

    public let descriptor: SourceDescriptor
    public let input: NMEAInput
    public let allowMissingChecksum: Bool

    private enum Driver: Sendable {
        case live(NMEAStreamReader)
        case replay(NMEAFileReplay)
    }

    private let driver: Driver

    /// - Parameters:
    ///   - name: the spec the source is known by (default: derived from `input`).
    ///   - allowMissingChecksum: accept sentences without `*hh` (some cheap receivers, hand-made logs).
    ///   - speed: recorded seconds per loop second for a file replayed at `.recorded` pace.
    /// - Precondition: `speed` positive and finite; a baud rate from `SerialPort.supportedBaudRates`;
    ///   a port in 1...65535 (`SourceSpec` checks user input).
    public init(input: NMEAInput, name: String? = nil, allowMissingChecksum: Bool = false, speed: Double = 1,
                backoff: Backoff = NMEASource.defaultBackoff,
                silenceTimeout: TimeInterval = NMEASource.defaultSilenceTimeout) {
        precondition(speed.isFinite && speed > 0, "speed must be a positive number")
        self.input = input
        self.allowMissingChecksum = allowMissingChecksum
        let name = name ?? Self.defaultName(for: input)
        let options = NMEADecoder.Options(allowMissingChecksum: allowMissingChecksum)
        let opener: any StreamOpener
        switch input {
        case .file(let path, let pace):
            driver = .replay(NMEAFileReplay(path: path, name: name, pace: pace, speed: speed, decoderOptions: options))
            descriptor = SourceDescriptor(name: name, kind: .nmea, typicalAccuracy: Self.typicalAccuracy, powerCost: 0)
            return
        case .device(let path, let baud):
            precondition(SerialPort.speed(forBaud: baud) != nil, "unsupported baud rate")
            opener = DeviceOpener(path: path, baud: baud)
        case .tcp(let host, let port):
            precondition((1...65535).contains(port), "port out of range")
            opener = TCPOpener(host: host, port: port)
        case .standardInput:
            opener = StandardInputOpener()
        }
        driver = .live(NMEAStreamReader(opener: opener, name: name, decoderOptions: options, backoff: backoff,
                                        silenceTimeout: silenceTimeout))
        descriptor = SourceDescriptor(name: name, kind: .nmea, typicalAccuracy: Self.typicalAccuracy,
                                      powerCost: Self.powerCost)
    }

    public func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        switch driver {
        case .live(let reader): reader.start(on: loop, emit: emit)
        case .replay(let replay): replay.start(on: loop, emit: emit)
        }
    }

    public func stop() {
        switch driver {
        case .live(let reader): reader.stop()
        case .replay(let replay): replay.stop()
        }
    }

    static func defaultName(for input: NMEAInput) -> String {
        switch input {
        case .file(let path, let pace): "nmea:\(path)" + (pace == .max ? "?pace=max" : "")
        case .device(let path, let baud): "nmea:\(path)?baud=\(baud)"
        case .tcp(let host, let port): "nmea:tcp://\(TCPOpener.hostPort(host, port))"
        case .standardInput: "nmea:-"
        }
    }
}
