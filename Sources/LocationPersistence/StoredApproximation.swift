import Foundation

/// What the service keeps of one app's approximate location between runs: the region it was told
/// last and when it was told things, so that a relaunch or a restart of the service is not a way
/// to learn a fresher position than the rate limit allows.
public struct StoredApproximation: Sendable, Equatable {
    public struct Report: Sendable, Equatable {
        public var regionID: UInt64
        public var latitude: Double
        public var longitude: Double
        /// Metres.
        public var radius: Double
        public var timestamp: Date
        public var isSimulated: Bool

        public init(regionID: UInt64, latitude: Double, longitude: Double, radius: Double, timestamp: Date, isSimulated: Bool) {
            self.regionID = regionID
            self.latitude = latitude
            self.longitude = longitude
            self.radius = radius
            self.timestamp = timestamp
            self.isSimulated = isSimulated
        }
    }

    public var current: Report?
    /// When the reports of the last hour were made, oldest first.
    public var recentReports: [Date]

    public init(current: Report? = nil, recentReports: [Date] = []) {
        self.current = current
        self.recentReports = recentReports
    }

    public var isEmpty: Bool { current == nil && recentReports.isEmpty }
}
