import Foundation
import LocationCore

/// What one client wants from the engine. Field meanings and sentinels follow `CLLocationManager`.
public struct UpdateRequest: Sendable, Equatable, Codable {
    public enum Mode: Sendable, Equatable, Codable {
        /// `startUpdatingLocation()`: fixes until stopped; may pause automatically.
        case continuous
        /// `requestLocation()`: one fix at the desired accuracy, or `locationUnknown` on timeout.
        case single
        /// `CLLocationUpdate.liveUpdates()`: every fix; reports stationarity instead of pausing.
        case live
    }

    /// Activity types with `CLActivityType`'s raw values.
    public enum Activity: Int, Sendable, Codable {
        case other = 1
        case automotiveNavigation = 2
        case fitness = 3
        case otherNavigation = 4
        case airborne = 5
    }

    public var mode: Mode
    /// Metres; `-1` (best) and `-2` (best for navigation) ask for the best the hardware can do.
    public var desiredAccuracy: Double
    /// Metres; negative means every movement (`kCLDistanceFilterNone`).
    public var distanceFilter: Double
    public var activity: Activity
    public var pausesAutomatically: Bool

    public init(
        mode: Mode = .continuous, desiredAccuracy: Double = -1, distanceFilter: Double = -1,
        activity: Activity = .other, pausesAutomatically: Bool = true
    ) {
        self.mode = mode
        self.desiredAccuracy = desiredAccuracy
        self.distanceFilter = distanceFilter
        self.activity = activity
        self.pausesAutomatically = pausesAutomatically
    }

    /// The accuracy a source must reach to satisfy this request, metres (0 = the best available).
    public var requiredAccuracy: Double { desiredAccuracy > 0 ? desiredAccuracy : 0 }
}

/// What the engine tells one subscriber.
public enum SubscriptionEvent: Sendable, Equatable {
    /// New fixes, oldest first (never empty).
    case locations([Fix])
    /// No position right now; transient — the engine keeps trying.
    case locationUnknown
    /// Continuous mode paused because the device stopped moving; the subscriber must resume it.
    case paused
    /// Live mode: the device became stationary (`true`) or started moving again (`false`).
    case stationary(Bool)
    /// A single request has been answered (after its fix or its `locationUnknown`).
    case completed
    /// The source has no more data (a replayed file ended).
    case sourceFinished
}
