/// The precision of location the app is authorized to receive. Raw values match Apple's.
public enum CLAccuracyAuthorization: Int, Sendable {
    /// Precise locations.
    case fullAccuracy = 0
    /// Approximate locations only (see `kCLLocationAccuracyReduced`).
    case reducedAccuracy = 1
}
