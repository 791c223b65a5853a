import Foundation
import LocationPolicy
import LocationProtocol
import Logging

/// Every app's approximate-location history in one service (loop-confined): each precise fix an
/// approximate stream receives goes through its app's ``ApproximateHistory``, which decides whether
/// the app may learn something new; the history is saved before anything of it is delivered.
final class ApproximateKeeper {
    private let regions: any ApproximateRegions
    private let storage: any ApproximateStorage
    private let logger: Logger
    private var apps: [String: Entry] = [:]

    /// An app's history and how many times it has changed in this run: a stream that has delivered
    /// the current generation has nothing new to say.
    private struct Entry {
        var history: ApproximateHistory
        var generation: UInt64
    }

    init(regions: any ApproximateRegions, storage: any ApproximateStorage, logger: Logger) {
        self.regions = regions
        self.storage = storage
        self.logger = logger
    }

    /// Takes a precise fix for `appID` in at `now`; returns the app's current report (nil only when
    /// none can exist) and its generation.
    func observe(_ fix: Fix, appID: String, now: Date) -> (report: ApproximateHistory.Report, generation: UInt64)? {
        var entry = apps[appID] ?? Entry(history: storage.load(appID: appID, logger: logger), generation: 1)
        var probe = entry.history
        if probe.observe(fix, regions: regions, now: now) {
            // About to report: another process of the app (each with its own in-process service when
            // no locationd runs) may have reported meanwhile, and its report counts too.
            let stored = storage.load(appID: appID, logger: logger)
            if let theirs = stored.recentReports.last, entry.history.recentReports.last.map({ theirs > $0 }) ?? true {
                entry.history = stored
                entry.generation += 1
            }
            if entry.history.observe(fix, regions: regions, now: now) {
                entry.generation += 1
                do {
                    try storage.save(entry.history, appID: appID)
                } catch {
                    // The limit still holds in this run; only a restart would forget this report.
                    logger.error("could not save an app's approximate-location history", metadata: ["app": "\(appID)", "error": "\(error)"])
                }
            }
        }
        apps[appID] = entry
        return entry.history.current.map { ($0, entry.generation) }
    }
}
