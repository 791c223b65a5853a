import Dispatch
import Foundation
import LocationCore
import LocationEngine
import LocationProtocol
import Logging

/// Restores the engine's last known fix at start and saves the newest one at most every `interval`
/// seconds and at stop, off the engine's loop (sealing and writing a file must not delay delivery).
final class LastLocationKeeper: Sendable {
    private let storage: any LastLocationStorage
    private let engine: LocationEngine
    private let interval: TimeInterval
    private let logger: Logger
    private let queue = DispatchQueue(label: "corelocation.locationd.last-location")

    private struct State {
        /// The next save, on the engine's loop (its clock times the interval).
        var next: ScheduledWork?
        /// The timestamp of the fix on disk, so an unchanged fix is not written again.
        var savedTimestamp: Date?
        var failing = false
    }

    private let state = Locked(State())

    init(storage: any LastLocationStorage, engine: LocationEngine, interval: TimeInterval, logger: Logger) {
        self.storage = storage
        self.engine = engine
        self.interval = interval
        self.logger = logger
    }

    /// Hands the saved fix to the engine and starts saving periodically.
    func start() {
        do {
            if let fix = try storage.load() {
                state.withLock { $0.savedTimestamp = fix.timestamp }
                engine.restoreLastFix(fix)
                let age = engine.loop.now.timeIntervalSince(fix.timestamp)
                logger.debug("restored the last known location", metadata: ["age": "\(Int(age)) s"])
            }
        } catch {
            // A damaged or foreign file: start without a cached fix rather than trust it.
            logger.warning("could not restore the last known location; starting without one", metadata: ["error": "\(error)"])
        }
        scheduleSave()
    }

    /// The interval is timed by the engine's loop; the saving itself runs on the keeper's queue.
    private func scheduleSave() {
        let next = engine.loop.schedule(after: interval) { [self] in
            queue.async { self.saveIfNewer() }
            guard state.withLock({ $0.next != nil }) else { return }
            scheduleSave()
        }
        state.withLock { $0.next = next }
    }

    /// Stops the periodic saving and saves the newest fix now.
    func stop() {
        let next = state.withLock { state -> ScheduledWork? in
            defer { state.next = nil }
            return state.next
        }
        next?.cancel()
        queue.sync { saveIfNewer() }
    }

    private func saveIfNewer() {
        guard let fix = engine.status.lastFix,
              state.withLock({ $0.savedTimestamp != fix.timestamp }) else { return }
        do {
            try storage.save(fix)
            let recovered = state.withLock { state -> Bool in
                defer { state.savedTimestamp = fix.timestamp; state.failing = false }
                return state.failing
            }
            if recovered { logger.notice("saving the last known location works again") }
        } catch {
            // Logged once per failure streak: the next attempt comes every few seconds.
            let first = state.withLock { state -> Bool in
                defer { state.failing = true }
                return !state.failing
            }
            if first { logger.error("could not save the last known location", metadata: ["error": "\(error)"]) }
        }
    }
}
