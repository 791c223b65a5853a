/// One region of approximate location: everything an app with reduced accuracy learns about where
/// the device is while it stays inside.
public struct ApproximateRegion: Sendable, Equatable, Hashable {
    /// The region's identity under this device's layout: equal for every point of the region.
    public var id: UInt64
    /// The point reported for every location inside the region, independent of where inside.
    public var latitude: Double
    public var longitude: Double
    /// Metres round the reported point that contain the whole region, so also the true position.
    public var radius: Double

    public init(id: UInt64, latitude: Double, longitude: Double, radius: Double) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }
}

/// How the world is cut into approximate regions. Implementations are pure functions of the
/// position (and of the device's secret layout seed they were made with), safe from any thread.
public protocol ApproximateRegions: Sendable {
    func region(latitude: Double, longitude: Double) -> ApproximateRegion
    /// The region to report for a device last reported in `previous`: a layout with hysteresis keeps
    /// `previous` while the device is near its boundary, so the moment a new region is reported
    /// does not tell when the device crossed a line.
    func region(latitude: Double, longitude: Double, previous: ApproximateRegion?) -> ApproximateRegion
}

extension ApproximateRegions {
    /// No hysteresis: the region of the position.
    public func region(latitude: Double, longitude: Double, previous: ApproximateRegion?) -> ApproximateRegion {
        region(latitude: latitude, longitude: longitude)
    }
}
