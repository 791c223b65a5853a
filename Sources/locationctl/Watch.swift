import ArgumentParser
import Foundation
import LocationCore
import LocationEngine
import LocationGeodesy
import LocationProtocol

extension LocationCtl {
    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Show live location updates (like startUpdatingLocation()).")

        @OptionGroup var sourceOptions: SourceOptions

        @Flag(name: .long, help: "Print one JSON object per fix (JSON lines).")
        var json = false

        @Option(name: .long, help: "Stop after this many fixes.")
        var count: Int?

        @Option(name: .long, help: "Minimum distance in metres between two updates (distanceFilter).")
        var distanceFilter: Double = -1

        @Flag(name: .long, help: ArgumentHelp(
            "Show headings too (like startUpdatingHeading()): magnetic, true and their accuracy.",
            discussion: "Needs a heading source: sim:, compass:DEGREES beside a location source (--source 'fixed:48.85,2.35;compass:0'), or a receiver that reports headings."))
        var heading = false

        @Option(name: .long, help: "Degrees a heading must turn before it is shown again (headingFilter; --heading-filter=-1: every heading).")
        var headingFilter: Double = 1

        func validate() throws {
            if let count, count <= 0 { throw ValidationError("--count must be at least 1") }
            guard distanceFilter.isFinite else { throw ValidationError("--distance-filter must be a number") }
            guard headingFilter.isFinite else { throw ValidationError("--heading-filter must be a number") }
        }

        func run() async throws {
            LocationCtl.bootstrapLogging(verbose: sourceOptions.verbose)
            let engine = try sourceOptions.makeEngine()
            let request = UpdateRequest(
                mode: .continuous, desiredAccuracy: -1, distanceFilter: distanceFilter, pausesAutomatically: false)
            var display: any FixDisplay
            if json {
                display = JSONLinesDisplay()
            } else if isatty(STDOUT_FILENO) == 1 {
                display = LiveTerminalDisplay(source: sourceOptions.source)
            } else {
                display = PlainLinesDisplay()
            }
            var delivered = 0
            // Without --heading, the location events alone: their bounded buffer holds a fast replay
            // back to the output's pace.
            guard heading else {
                for await event in engine.events(request) {
                    if show(event, on: &display, delivered: &delivered) { return }
                }
                return
            }
            guard engine.hasHeadingSources else {
                throw CommandFailure("\(sourceOptions.source) has no heading source; add one, e.g. --source '\(sourceOptions.source);compass:0'")
            }
            for await item in engine.locationsAndHeadings(request, HeadingRequest(filter: headingFilter)) {
                switch item {
                case .location(let event):
                    if show(event, on: &display, delivered: &delivered) { return }
                case .heading(let sample):
                    display.show(heading: sample)
                }
            }
        }

        /// Shows one location event; true when watching is over (`--count` reached, source finished).
        private func show(_ event: StreamEvent, on display: inout any FixDisplay, delivered: inout Int) -> Bool {
            switch event {
            case .locations(let fixes):
                for fix in fixes {
                    display.show(fix)
                    delivered += 1
                    if let count, delivered >= count { return true }
                }
            case .failed(.locationUnknown):
                display.note("location unavailable; still trying")
            case .sourceFinished:
                display.note("source finished after \(delivered) fixes")
                return true
            default:
                break
            }
            return false
        }
    }
}

protocol FixDisplay {
    mutating func show(_ fix: Fix)
    mutating func show(heading: HeadingSample)
    mutating func note(_ message: String)
}

/// Unbuffered output, so a pipe reader sees each fix as it happens.
enum Output {
    static func line(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    static func error(_ text: String) { FileHandle.standardError.write(Data(("locationctl: " + text + "\n").utf8)) }
}

struct JSONLinesDisplay: FixDisplay {
    func show(_ fix: Fix) { Output.line(FixFormatting.json(fix)) }
    func show(heading: HeadingSample) { Output.line(HeadingFormatting.json(heading)) }
    func note(_ message: String) { Output.error(message) }
}

struct PlainLinesDisplay: FixDisplay {
    func show(_ fix: Fix) { Output.line(FixFormatting.line(fix)) }
    func show(heading: HeadingSample) { Output.line(HeadingFormatting.line(heading)) }
    func note(_ message: String) { Output.line("-- \(message)") }
}

/// A block of lines redrawn in place for each fix: what a person watching a terminal wants.
struct LiveTerminalDisplay: FixDisplay {
    let source: String
    private var terminal = TerminalBlock()
    private var first: Fix?
    private var previous: Fix?
    private var travelled = 0.0
    private var fixes = 0
    private var message = ""
    private var heading: HeadingSample?

    init(source: String) { self.source = source }

    mutating func show(_ fix: Fix) {
        fixes += 1
        if first == nil { first = fix }
        if let previous {
            travelled += Geodesic.wgs84.distance(
                latitude1: previous.latitude, longitude1: previous.longitude,
                latitude2: fix.latitude, longitude2: fix.longitude)
        }
        previous = fix
        message = ""
        draw(fix)
    }

    mutating func show(heading: HeadingSample) {
        self.heading = heading
        if let previous { draw(previous) } else { Output.line(HeadingFormatting.line(heading)) }
    }

    mutating func note(_ message: String) {
        self.message = message
        if let previous { draw(previous) } else { Output.line("-- \(message)") }
    }

    private mutating func draw(_ fix: Fix) {
        let elapsed = first.map { fix.timestamp.timeIntervalSince($0.timestamp) } ?? 0
        var lines = [
            "locationctl watch  \(source)\(fix.isSimulated ? "  (simulated)" : "")  fixes: \(fixes)",
            "  time      \(FixFormatting.timestamp(fix.timestamp))",
            String(format: "  position  %.6f, %.6f  ±%.0f m", fix.latitude, fix.longitude, fix.horizontalAccuracy),
            fix.verticalAccuracy > 0 ? String(format: "  altitude  %.1f m  ±%.0f m", fix.altitude, fix.verticalAccuracy) : "  altitude  —",
            fix.speed >= 0 ? String(format: "  speed     %.1f km/h  (%.1f m/s)", fix.speed * 3.6, fix.speed) : "  speed     —",
            fix.course >= 0 ? String(format: "  course    %03.0f° %@", fix.course, FixFormatting.compassPoint(fix.course)) : "  course    —",
            String(format: "  travelled %.2f km in %@", travelled / 1000, Self.duration(elapsed)),
        ]
        if let heading { lines.append("  heading   " + HeadingFormatting.summary(heading)) }
        if !message.isEmpty { lines.append("  -- \(message)") }
        terminal.draw(lines)
    }

    private static func duration(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        return String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
    }
}
