import Foundation
import LocationProtocol

/// What an app with reduced accuracy has been told, and the rule for telling it more: one history
/// per app, shared by all its managers, streams, single requests and processes, and kept across
/// relaunches and restarts of the service, so that restarting a stream or opening another manager
/// never yields a fresher position than the rule allows.
///
/// The rule: a new position is reported only when the device is in another region than the one
/// reported last, at least ``minimumInterval`` after the last report and with fewer than
/// ``reportsPerHour`` reports in the hour before — so never more than four in any hour. Between
/// reports, a stream that starts is given the last reported position, with the time of the fix it
/// was made from.
public struct ApproximateHistory: Sendable, Equatable {
    public static let reportsPerHour = 4
    public static let minimumInterval: TimeInterval = 15 * 60

    /// The last region reported.
    public var current: Report?
    /// When (the service's time) the reports of the last hour were made, oldest first (at most
    /// ``reportsPerHour``).
    public var recentReports: [Date]

    public struct Report: Sendable, Equatable {
        public var region: ApproximateRegion
        /// The timestamp of the fix the report was made from.
        public var timestamp: Date
        /// Whether the fix it was made from came from a simulator (`CLLocation.sourceInformation`).
        public var isSimulated: Bool

        public init(region: ApproximateRegion, timestamp: Date, isSimulated: Bool) {
            self.region = region
            self.timestamp = timestamp
            self.isSimulated = isSimulated
        }

        /// The fix an app is given: the region's point and radius; altitude, speed and course withheld.
        public var fix: Fix {
            Fix(latitude: region.latitude, longitude: region.longitude, horizontalAccuracy: region.radius,
                timestamp: timestamp, isSimulated: isSimulated)
        }
    }

    public init(current: Report? = nil, recentReports: [Date] = []) {
        self.current = current
        self.recentReports = recentReports
    }

    /// Takes a precise fix in at time `now`; returns whether a new report was made (the history changed).
    public mutating func observe(_ fix: Fix, regions: any ApproximateRegions, now: Date) -> Bool {
        // Reports dated after now (the clock went back) count from now on as made at the step.
        recentReports = Self.clamped(recentReports, to: now)
        let region = regions.region(latitude: fix.latitude, longitude: fix.longitude, previous: current?.region)
        if let current, current.region.id == region.id { return false }
        guard mayReport(at: now) else { return false }
        current = Report(region: region, timestamp: fix.timestamp, isSimulated: fix.isSimulated)
        recentReports = recentReports.filter { now.timeIntervalSince($0) <= 3600 } + [now]
        return true
    }

    /// Whether a new report may be made at `now`. A clock that went back since the last report
    /// makes the wait longer, never shorter: a report dated after `now` counts as made now (and
    /// ``observe(_:regions:now:)`` keeps it so, making the wait one interval from the step).
    public func mayReport(at now: Date) -> Bool {
        let reports = Self.clamped(recentReports, to: now)
        if let last = reports.last, now.timeIntervalSince(last) < Self.minimumInterval { return false }
        // A closed hour: reports 15 minutes apart would otherwise put five in [t, t + 1 h].
        let inTheLastHour = reports.filter { now.timeIntervalSince($0) <= 3600 }
        return inTheLastHour.count < Self.reportsPerHour
    }

    /// Report times after `now` (the clock went back since) moved to `now`.
    private static func clamped(_ reports: [Date], to now: Date) -> [Date] {
        reports.map { min($0, now) }
    }
}
