import Foundation
import LocationCore
import LocationProtocol
import LocationSources

/// Reads a replayable source — a simulated route, a GPX file, a recorded NMEA log, a fixed point —
/// to its end as fast as the machine allows, on a virtual clock.
enum SourceReading {
    /// Seconds of the source's own (simulated) time read when nothing else ends the reading.
    static let defaultLimit: TimeInterval = 24 * 3600

    /// The fixes of `spec`, in order.
    ///
    /// Reading stops when the source finishes, or once its fixes span `limit` seconds of simulated
    /// time. Without a limit: one lap of a built-in route, one fix of a fixed point, else
    /// `defaultLimit`.
    ///
    /// - Throws: `CommandFailure` for a live receiver (gpsd, a serial device, TCP, standard input),
    ///   which has no end to read to, or a source that cannot be made.
    static func fixes(of spec: SourceSpec, limit: TimeInterval? = nil) throws -> [Fix] {
        switch spec {
        case .gpsd, .nmea(.tcp, _), .nmea(.standardInput, _):
            throw CommandFailure("\(spec) is a live receiver; map needs a replayable source (sim:, gpx:, nmea:FILE, fixed:)")
        case .compass, .iio:
            throw CommandFailure("\(spec) reports headings only; map needs a source of positions (sim:, gpx:, nmea:FILE, fixed:)")
        default:
            break
        }
        let source: any LocationSource
        do {
            source = try spec.makeSource()
        } catch {
            throw CommandFailure("\(error)")
        }
        if let nmea = source as? NMEASource {
            guard case .file = nmea.input else {
                throw CommandFailure("\(spec) is a live receiver; map needs a replayable source (sim:, gpx:, nmea:FILE, fixed:)")
            }
        }
        let span: TimeInterval
        if let limit {
            span = limit
        } else if let simulated = source as? SimulatedRouteSource, simulated.track.isLooping {
            span = simulated.track.duration
        } else if source is FixedSource {
            span = 0
        } else {
            span = defaultLimit
        }
        return read(source, span: span)
    }

    /// Runs `source` on a virtual loop until it finishes or its fixes span `span` seconds.
    static func read(_ source: any LocationSource, span: TimeInterval) -> [Fix] {
        let loop = VirtualLoop()
        let collected = Locked((fixes: [Fix](), finished: false))
        source.start(on: loop) { event in
            collected.withLock { state in
                switch event {
                case .fix(let fix):
                    if let first = state.fixes.first, fix.timestamp.timeIntervalSince(first.timestamp) > span {
                        state.finished = true
                    } else {
                        state.fixes.append(fix)
                    }
                case .finished:
                    state.finished = true
                case .noFix, .heading, .beacon:
                    break
                }
            }
        }
        defer { source.stop() }
        // Each step runs whatever falls due within a second of loop time; a loop with nothing left
        // to run and no end reported is a source that has stopped producing.
        while !collected.withLock({ $0.finished }) {
            if loop.pendingCount == 0 { break }
            loop.advance(by: 1)
        }
        return collected.withLock { $0.fixes }
    }
}
