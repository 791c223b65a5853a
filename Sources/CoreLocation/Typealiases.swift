// The typealiases of Core Location. The scalar ones are exactly `Double`/`UInt16`, as on Apple
// platforms, so code that mixes them with plain `Double` keeps compiling.

/// A latitude or longitude value, in degrees (WGS 84).
public typealias CLLocationDegrees = Double

/// A distance in metres.
public typealias CLLocationDistance = Double

/// The accuracy of a geographical coordinate, in metres; negative means invalid.
public typealias CLLocationAccuracy = Double

/// A speed in metres per second; negative means invalid.
public typealias CLLocationSpeed = Double

/// The accuracy of a speed, in metres per second; negative means invalid.
public typealias CLLocationSpeedAccuracy = Double

/// An azimuth in degrees clockwise from true north; negative means invalid.
public typealias CLLocationDirection = Double

/// The accuracy of a direction, in degrees; negative means invalid.
public typealias CLLocationDirectionAccuracy = Double

/// A raw geomagnetic component, in microteslas.
public typealias CLHeadingComponentValue = Double

/// The most significant identity value of an iBeacon.
public typealias CLBeaconMajorValue = UInt16

/// The least significant identity value of an iBeacon.
public typealias CLBeaconMinorValue = UInt16

/// The completion handler of `CLGeocoder`'s requests: placemarks (best first), or an error.
///
/// Called on the main thread, exactly once per request.
public typealias CLGeocodeCompletionHandler = ([CLPlacemark]?, (any Error)?) -> Void
