import Foundation

/// Reduced ("approximate") accuracy: the constants the service and the API share. Where an app
/// with reduced accuracy is told it is comes from ``ApproximateRegions``; when it is told, from
/// ``ApproximateHistory``.
public enum ApproximateLocation {
    /// The desired accuracy (`kCLLocationAccuracyReduced`, metres) with which an app asks for
    /// approximate locations even when it may have precise ones.
    public static let requestedAccuracy = 6_380_000.0
    /// What the engine is asked for on behalf of an approximate stream: no GPS-grade demand.
    public static let engineAccuracy = 3_000.0
}
