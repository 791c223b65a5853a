import Foundation
import LocationCore

/// Whether a source runs, and a generation every start and stop bumps: work a run scheduled (a
/// timer, a reply from a device or a bus) checks it still belongs to the current run before it emits.
struct SourceRun: Sendable {
    private(set) var running = false
    private(set) var generation: UInt64 = 0

    /// Marks the source running and returns the new run's generation; nil when it already ran.
    mutating func begin() -> UInt64? {
        guard !running else { return nil }
        running = true
        generation &+= 1
        return generation
    }

    /// Marks the source stopped; false when it was not running.
    @discardableResult
    mutating func end() -> Bool {
        guard running else { return false }
        running = false
        generation &+= 1
        return true
    }

    func isCurrent(_ run: UInt64) -> Bool { running && generation == run }
}

/// Calls a closure once per `interval` of loop time while started: the first call as soon as the
/// loop runs, then at absolute deadlines (`start + n × interval`, so no drift), each stamped with
/// the loop's time. What the simulated fixed point and compass are made of.
final class PeriodicTicker: Sendable {
    let interval: TimeInterval
    private let state = Locked<(run: SourceRun, pending: ScheduledWork?)>((SourceRun(), nil))

    init(interval: TimeInterval) {
        self.interval = interval
    }

    /// Starts ticking; false when it already ticks.
    func start(on loop: any EngineLoop, _ tick: @escaping @Sendable (Date) -> Void) -> Bool {
        guard let generation = state.withLock({ $0.run.begin() }) else { return false }
        schedule(number: 0, from: loop.now, generation: generation, on: loop, tick)
        return true
    }

    /// Stops ticking (a tick already due does not run); false when it was not ticking.
    func stop() -> Bool {
        let stopped = state.withLock { state -> (Bool, ScheduledWork?) in
            defer { state.pending = nil }
            return (state.run.end(), state.pending)
        }
        stopped.1?.cancel()
        return stopped.0
    }

    private func schedule(number: Int, from start: Date, generation: UInt64, on loop: any EngineLoop,
                          _ tick: @escaping @Sendable (Date) -> Void) {
        let work = loop.schedule(at: start.addingTimeInterval(Double(number) * interval)) { [self] in
            guard state.withLock({ $0.run.isCurrent(generation) }) else { return }
            tick(loop.now)
            schedule(number: number + 1, from: start, generation: generation, on: loop, tick)
        }
        let current = state.withLock { state -> Bool in
            guard state.run.isCurrent(generation) else { return false }
            state.pending = work
            return true
        }
        if !current { work.cancel() }
    }
}
