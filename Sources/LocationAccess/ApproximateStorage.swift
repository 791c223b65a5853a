import Foundation
import LocationCore
import LocationPersistence
import LocationPolicy
import Logging

/// Where the service keeps each app's approximate-location history, so that the rate limit holds
/// across relaunches and restarts. `locationd` and the in-process service use `LocationPersistence`'s
/// `ApproximationStore` (a sealed file per app); tests use ``MemoryApproximateStorage``.
public protocol ApproximateStorage: Sendable {
    /// The app's history; an unreadable one is logged and the app starts afresh.
    func load(appID: String, logger: Logger) -> ApproximateHistory
    func save(_ history: ApproximateHistory, appID: String) throws
}

extension ApproximationStore: ApproximateStorage {
    public func load(appID: String, logger: Logger) -> ApproximateHistory {
        do {
            return ApproximateHistory(try load(appID: appID))
        } catch {
            logger.error("an app's approximate-location history could not be read; it starts afresh",
                         metadata: ["app": "\(appID)", "error": "\(error)"])
            do {
                try setAside(appID: appID)
            } catch {
                logger.error("the unreadable history could not be moved aside", metadata: ["error": "\(error)"])
            }
            return ApproximateHistory()
        }
    }

    public func save(_ history: ApproximateHistory, appID: String) throws {
        try save(StoredApproximation(history), appID: appID)
    }
}

/// Histories kept in memory only: for tests, and for a service told to keep nothing.
public final class MemoryApproximateStorage: ApproximateStorage {
    private let state = Locked<[String: ApproximateHistory]>([:])

    public init() {}

    public func load(appID: String, logger: Logger) -> ApproximateHistory { state.withLock { $0[appID] ?? ApproximateHistory() } }

    public func save(_ history: ApproximateHistory, appID: String) throws { state.withLock { $0[appID] = history } }
}

extension ApproximateHistory {
    init(_ stored: StoredApproximation) {
        self.init(
            current: stored.current.map {
                Report(region: ApproximateRegion(id: $0.regionID, latitude: $0.latitude, longitude: $0.longitude, radius: $0.radius),
                       timestamp: $0.timestamp, isSimulated: $0.isSimulated)
            },
            recentReports: stored.recentReports)
    }
}

extension StoredApproximation {
    init(_ history: ApproximateHistory) {
        self.init(
            current: history.current.map {
                Report(regionID: $0.region.id, latitude: $0.region.latitude, longitude: $0.region.longitude,
                       radius: $0.region.radius, timestamp: $0.timestamp, isSimulated: $0.isSimulated)
            },
            recentReports: history.recentReports)
    }
}
