/// A condition a `CLMonitor` watches: the device inside a circle, or near a beacon.
///
/// Conditions are `Codable` so that monitors can be kept across launches: a monitor created again
/// with the same name finds the conditions it had, with their last events.
///
/// NOTE: only `CLMonitor.CircularGeographicCondition` is watched on Linux. A
/// `CLMonitor.BeaconIdentityCondition`, or a condition type of the app's own, is kept in the
/// monitor with the state `.unmonitored` and an event that has `conditionUnsupported` set.
public protocol CLCondition: Codable, Sendable {}
