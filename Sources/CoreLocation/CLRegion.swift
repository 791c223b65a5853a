import LocationGeodesy

/// The abstract base of monitored regions: an identifier and which transitions to report.
///
/// Two regions are equal when they are of the same class and have the same `identifier`, and they
/// hash by identifier. That is how monitoring treats them: monitoring a region whose identifier is
/// already monitored replaces it, and Apple tells apps to compare the regions it returns (which
/// may be different objects) by identifier. So a `Set<CLRegion>` holds one region per identifier
/// and class.
///
/// Not `Sendable` (the notify flags are mutable), as on Apple platforms.
open class CLRegion: NSObject, NSCopying, NSSecureCoding {
    /// The circle of a region made with the deprecated `init(circularRegionWithCenter:…)`, and
    /// of every `CLCircularRegion`; `nil` for other regions.
    struct Circle {
        var center: CLLocationCoordinate2D
        var radius: CLLocationDistance
    }

    private let _identifier: String
    let circle: Circle?

    /// The app's name for the region; unique among monitored regions.
    open var identifier: String { _identifier }

    /// Whether entering the region is reported. Default `true`.
    open var notifyOnEntry: Bool = true

    /// Whether leaving the region is reported. Default `true`.
    open var notifyOnExit: Bool = true

    /// A region with an empty identifier; Apple inherits this from `NSObject`.
    ///
    /// Designated (like the deprecated initializer) so that an app's subclass inherits it.
    public override init() {
        self._identifier = ""
        self.circle = nil
        super.init()
    }

    /// A circular region of the base class, from before `CLCircularRegion` existed.
    @available(*, deprecated, message: "Please see CLCircularRegion")
    public init(
        circularRegionWithCenter center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String
    ) {
        self._identifier = identifier
        self.circle = Circle(center: center, radius: radius)
        super.init()
    }

    /// The designated initializer of the region classes in this module.
    init(identifier: String, circle: Circle?) {
        self._identifier = identifier
        self.circle = circle
        super.init()
    }

    /// The centre of a circular region; `kCLLocationCoordinate2DInvalid` for other regions.
    @available(*, deprecated, message: "Please see CLCircularRegion")
    open var center: CLLocationCoordinate2D { circle?.center ?? kCLLocationCoordinate2DInvalid }

    /// The radius of a circular region, metres; 0 for other regions.
    @available(*, deprecated, message: "Please see CLCircularRegion")
    open var radius: CLLocationDistance { circle?.radius ?? 0 }

    /// Whether a circular region contains a coordinate; always `false` for other regions.
    @available(*, deprecated, message: "Please see CLCircularRegion")
    open func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        circle?.contains(coordinate) ?? false
    }

    // MARK: Equality

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLRegion else { return false }
        return other === self || (type(of: other) == type(of: self) && other.identifier == identifier)
    }

    open override var hash: Int { identifier.hashValue }

    open override var description: String {
        guard let circle else { return "CLRegion (identifier:'\(identifier)')" }
        return "CLRegion (identifier:'\(identifier)', " + circle.descriptionFields + ")"
    }

    // MARK: NSCopying, NSSecureCoding

    /// A new region with the same values (regions are mutable, so this is a real copy).
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = CLRegion(identifier: _identifier, circle: circle)
        copy.copyNotifyFlags(from: self)
        return copy
    }

    /// Subclasses' `copy(with:)` helper: the flags every region carries.
    func copyNotifyFlags(from region: CLRegion) {
        notifyOnEntry = region.notifyOnEntry
        notifyOnExit = region.notifyOnExit
    }

    public class var supportsSecureCoding: Bool { true }

    private enum CodingKey {
        static let identifier = "identifier"
        static let notifyOnEntry = "notifyOnEntry"
        static let notifyOnExit = "notifyOnExit"
        static let hasCircle = "hasCircle"
        static let latitude = "center.latitude"
        static let longitude = "center.longitude"
        static let radius = "radius"
    }

    public required init?(coder: NSCoder) {
        guard let identifier = coder.decodeObject(of: NSString.self, forKey: CodingKey.identifier) else {
            return nil
        }
        self._identifier = identifier as String
        if coder.decodeBool(forKey: CodingKey.hasCircle) {
            self.circle = Circle(
                center: CLLocationCoordinate2D(
                    latitude: coder.decodeDouble(forKey: CodingKey.latitude),
                    longitude: coder.decodeDouble(forKey: CodingKey.longitude)),
                radius: coder.decodeDouble(forKey: CodingKey.radius))
        } else {
            self.circle = nil
        }
        super.init()
        self.notifyOnEntry = coder.decodeBool(forKey: CodingKey.notifyOnEntry)
        self.notifyOnExit = coder.decodeBool(forKey: CodingKey.notifyOnExit)
    }

    open func encode(with coder: NSCoder) {
        coder.encode(_identifier as NSString, forKey: CodingKey.identifier)
        coder.encode(notifyOnEntry, forKey: CodingKey.notifyOnEntry)
        coder.encode(notifyOnExit, forKey: CodingKey.notifyOnExit)
        coder.encode(circle != nil, forKey: CodingKey.hasCircle)
        if let circle {
            coder.encode(circle.center.latitude, forKey: CodingKey.latitude)
            coder.encode(circle.center.longitude, forKey: CodingKey.longitude)
            coder.encode(circle.radius, forKey: CodingKey.radius)
        }
    }
}

extension CLRegion.Circle {
    /// Inside or on the boundary, by WGS 84 geodesic distance; invalid coordinates are outside.
    func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        guard CLLocationCoordinate2DIsValid(coordinate) else { return false }
        let distance = Geodesic.wgs84.distance(
            latitude1: center.latitude, longitude1: center.longitude,
            latitude2: coordinate.latitude, longitude2: coordinate.longitude)
        return distance <= radius
    }

    /// `center:<+37.33233141,-122.03121860>, radius:100.00m`, as Apple prints regions.
    var descriptionFields: String {
        String(format: "center:<%+.8f,%+.8f>, radius:%.2fm", center.latitude, center.longitude, radius)
    }
}
