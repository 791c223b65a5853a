// Core Location's numeric constants. Apple does not document their values; these match the
// values apps observe on Apple platforms (and that header-derived bindings agree on), so code
// that compares against literals or prints them behaves the same.

/// Report every movement, however small (the default `distanceFilter`).
public let kCLDistanceFilterNone: CLLocationDistance = -1

/// Report every heading change (no `headingFilter`).
public let kCLHeadingFilterNone: CLLocationDegrees = -1

/// The largest distance Core Location works with, e.g. for "no deferral distance".
public let CLLocationDistanceMax: CLLocationDistance = .greatestFiniteMagnitude

/// The largest time interval Core Location works with, e.g. for "no deferral timeout".
public let CLTimeIntervalMax: TimeInterval = .greatestFiniteMagnitude

/// The highest accuracy, for navigation apps; a sentinel, not a distance.
public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = -2

/// The best accuracy the device offers; a sentinel, not a distance.
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1

/// Accurate to within ten metres.
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10

/// Accurate to within one hundred metres.
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100

/// Accurate to the nearest kilometre.
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000

/// Accurate to the nearest three kilometres.
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3000

/// The accuracy an app gets under approximate ("reduced") location authorization.
///
/// Treat it as an opaque large positive sentinel: compare against the constant, not a literal.
/// NOTE: Apple does not document the value. 6,380,000 m is what two independent third-party
/// codebases hard-code; it is unverified against a real device.
public let kCLLocationAccuracyReduced: CLLocationAccuracy = 6_380_000
