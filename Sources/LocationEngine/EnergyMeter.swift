import Foundation

/// Accounts the energy the engine's sources draw: power cost × running time, in joules.
public struct EnergyReport: Sendable, Equatable {
    /// Joules drawn by all sources so far.
    public var joules: Double
    /// Seconds each source (by descriptor name) has been running.
    public var runningTime: [String: TimeInterval]
    /// How many times any source was started.
    public var sourceStarts: Int
}

struct EnergyMeter {
    private(set) var report = EnergyReport(joules: 0, runningTime: [:], sourceStarts: 0)
    private var running: (name: String, milliwatts: Double, since: Date)?

    mutating func started(name: String, milliwatts: Double, at now: Date) {
        report.sourceStarts += 1
        running = (name, milliwatts, now)
    }

    mutating func stopped(at now: Date) {
        guard let running else { return }
        let seconds = max(0, now.timeIntervalSince(running.since))
        report.runningTime[running.name, default: 0] += seconds
        report.joules += running.milliwatts / 1000 * seconds
        self.running = nil
    }

    /// The report as of `now`, counting the source still running.
    func report(at now: Date) -> EnergyReport {
        var copy = self
        copy.stopped(at: now)
        return copy.report
    }
}
