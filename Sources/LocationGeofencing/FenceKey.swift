/// A fence's slot in a ``FenceIndex`` (and so in a ``GeofenceEvaluator``): a dense integer the
/// caller maps to its own names (app, group, identifier).
///
/// Slots are reused: after ``FenceIndex/remove(_:)`` the same key may be handed out for a new fence.
public struct FenceKey: Hashable, Comparable, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static func < (lhs: FenceKey, rhs: FenceKey) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A circular fence: centre in degrees on WGS 84, radius in metres.
public struct FenceCircle: Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var radius: Double

    public init(latitude: Double, longitude: Double, radius: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }

    /// A centre on the globe and a positive, finite radius: the only fences the index accepts.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
            && radius.isFinite && radius > 0
    }
}
