import Foundation

/// How many fences an app may watch, and how large one may be.
public struct FenceLimits: Sendable, Equatable {
    /// Apple's limit: 20 regions (or `CLMonitor` conditions) per app.
    public static let appleFencesPerApp = 20
    /// `maximumRegionMonitoringDistance`, metres.
    public static let defaultMaximumRadius = 100_000.0

    public var fencesPerApp: Int
    public var maximumRadius: Double
    /// Undelivered events kept per group while the app is not running; the oldest go first.
    public var pendingEvents: Int

    /// The variable that raises the per-app limit of an app's in-process service (embedded and
    /// server apps that watch many fences); `locationd` takes `--fence-limit` instead.
    public static let environmentVariable = "CORELOCATION_FENCE_LIMIT"

    /// Apple's limits, or the per-app limit `CORELOCATION_FENCE_LIMIT` names (a whole number ≥ 1;
    /// anything else is reported through `invalid` and ignored).
    public static func configured(
        environment: [String: String] = ProcessInfo.processInfo.environment, invalid: (String) -> Void = { _ in }
    ) -> FenceLimits {
        guard let text = environment[environmentVariable] else { return FenceLimits() }
        guard let limit = Int(text.trimmingCharacters(in: .whitespaces)), limit >= 1 else {
            invalid("\(environmentVariable)=\(text) is not a whole number of at least 1; keeping Apple's limit of \(appleFencesPerApp)")
            return FenceLimits()
        }
        return FenceLimits(fencesPerApp: limit)
    }

    public init(fencesPerApp: Int = FenceLimits.appleFencesPerApp, maximumRadius: Double = FenceLimits.defaultMaximumRadius,
                pendingEvents: Int = 1000) {
        self.fencesPerApp = fencesPerApp
        self.maximumRadius = maximumRadius
        self.pendingEvents = pendingEvents
    }
}
