/// A latitude and longitude in the WGS 84 reference frame.
///
/// Deliberately conforms only to `Sendable` and `BitwiseCopyable`, like Apple's: many apps and
/// libraries declare `extension CLLocationCoordinate2D: Equatable` (or `Hashable`, `Codable`)
/// themselves, and a conformance here would turn their code into a "redundant conformance" error.
/// Without `CustomStringConvertible`, `print` shows `CLLocationCoordinate2D(latitude: …, longitude: …)`
/// exactly as on Apple platforms.
public struct CLLocationCoordinate2D: Sendable, BitwiseCopyable {
    /// Degrees north of the equator; valid range −90…90.
    public var latitude: CLLocationDegrees
    /// Degrees east of the prime meridian; valid range −180…180.
    public var longitude: CLLocationDegrees

    /// The coordinate (0, 0).
    public init() {
        self.latitude = 0
        self.longitude = 0
    }

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The "no coordinate" sentinel: (−180, −180).
///
/// NOTE: Apple does not document the value; (−180, −180) is what Apple platforms print for it.
/// Latitude −180 makes it fail `CLLocationCoordinate2DIsValid`, which is what code actually
/// relies on.
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

/// Makes a coordinate; the C-style spelling that older code uses.
public func CLLocationCoordinate2DMake(
    _ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees
) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// Whether a coordinate lies within ±90° latitude and ±180° longitude, bounds included.
///
/// NaN in either component is invalid (every comparison with NaN is false).
public func CLLocationCoordinate2DIsValid(_ coord: CLLocationCoordinate2D) -> Bool {
    coord.latitude >= -90 && coord.latitude <= 90
        && coord.longitude >= -180 && coord.longitude <= 180
}
