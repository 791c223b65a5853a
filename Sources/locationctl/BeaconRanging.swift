import Foundation
import LocationCore
import LocationEngine
import LocationProtocol

/// `locationctl beacons`' live mode: ranges the beacons that satisfy a constraint with the engine
/// directly (as `watch` reads locations) and shows each scan, about once a second, until `count`
/// scans (or forever).
struct BeaconRanging {
    var constraint: BeaconConstraint
    var source: String
    var json: Bool
    var count: Int?

    func run(engine: LocationEngine) async throws {
        guard engine.hasBeaconSources else {
            throw CommandFailure("\(source) has no beacon source; add one, e.g. --source '\(source);beacon:\(constraint.uuid.uuidString),1,1,-59@LAT,LON'")
        }
        var display: any BeaconDisplay
        if json {
            display = JSONBeaconDisplay()
        } else if isatty(STDOUT_FILENO) == 1 {
            display = TableBeaconDisplay(title: "locationctl beacons  \(source)  \(BeaconFormatting.constraint(constraint))")
        } else {
            display = PlainBeaconDisplay()
        }
        var scans = 0
        for await event in engine.beaconScans([constraint]) {
            switch event {
            case .ranged(let beacons):
                display.show(beacons.filter { constraint.matches($0.identity) }, at: engine.loop.now)
                scans += 1
                if let count, scans >= count { return }
            case .unavailable(let reason):
                display.note("ranging unavailable: \(reason)")
            }
        }
    }
}

extension LocationEngine {
    /// The scans of one beacon subscription as an async sequence; ending the iteration ends it.
    /// Scans come once a second, so the buffer needs no bound.
    func beaconScans(_ constraints: [BeaconConstraint]) -> AsyncStream<BeaconScanEvent> {
        AsyncStream { continuation in
            let subscription = subscribeBeacons(constraints) { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}

protocol BeaconDisplay {
    mutating func show(_ beacons: [RangedBeacon], at time: Date)
    mutating func note(_ message: String)
}

struct JSONBeaconDisplay: BeaconDisplay {
    func show(_ beacons: [RangedBeacon], at time: Date) { Output.line(BeaconFormatting.json(beacons, at: time)) }
    func note(_ message: String) { Output.error(message) }
}

struct PlainBeaconDisplay: BeaconDisplay {
    func show(_ beacons: [RangedBeacon], at time: Date) {
        for line in BeaconFormatting.lines(beacons, at: time) { Output.line(line) }
    }

    func note(_ message: String) { Output.line("-- \(message)") }
}

/// The table redrawn in place for each scan.
struct TableBeaconDisplay: BeaconDisplay {
    let title: String
    private var terminal = TerminalBlock()
    private var scans = 0
    private var message = ""
    private var last: [RangedBeacon] = []
    private var time: Date?

    init(title: String) { self.title = title }

    mutating func show(_ beacons: [RangedBeacon], at time: Date) {
        scans += 1
        last = beacons
        self.time = time
        message = ""
        draw()
    }

    mutating func note(_ message: String) {
        self.message = message
        draw()
    }

    private mutating func draw() {
        var lines = ["\(title)  scans: \(scans)" + (time.map { "  \(FixFormatting.timestamp($0))" } ?? "")]
        lines += BeaconFormatting.table(last)
        if !message.isEmpty { lines.append("  -- \(message)") }
        terminal.draw(lines)
    }
}
