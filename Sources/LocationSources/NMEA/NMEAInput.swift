/// Where an `NMEASource` reads NMEA 0183 from.
public enum NMEAInput: Sendable, Equatable {
    /// A recorded log, replayed (see `NMEASource` for the timing).
    case file(path: String, pace: NMEAReplayPace)
    /// A receiver at a path: a serial device, set to `baud` 8N1 (terminals only), or a named pipe.
    case device(path: String, baud: Int)
    /// A receiver (or a bridge such as ser2net, or a phone app) serving NMEA over TCP.
    case tcp(host: String, port: Int)
    /// This process's standard input, e.g. `gpspipe -r | app`; its end is the end of the source.
    case standardInput
}

/// How fast a recorded log is replayed.
public enum NMEAReplayPace: String, Sendable, Equatable, CaseIterable {
    /// At the pace of the sentences' own times (times the source's `speed`).
    case recorded
    /// As fast as possible.
    case max
}
