/// A circular geographic region: a centre and a radius in metres.
///
/// Equal to another `CLCircularRegion` with the same identifier (see `CLRegion`).
open class CLCircularRegion: CLRegion {
    /// A region of `radius` metres around `center`.
    ///
    /// The radius is kept as given. (Apple's location manager rejects radii above
    /// `maximumRegionMonitoringDistance` when monitoring starts; region monitoring is not
    /// available on Linux yet.)
    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
        super.init(identifier: identifier, circle: Circle(center: center, radius: radius))
    }

    /// The centre of the region.
    open override var center: CLLocationCoordinate2D { circle?.center ?? kCLLocationCoordinate2DInvalid }

    /// The radius of the region, metres.
    open override var radius: CLLocationDistance { circle?.radius ?? 0 }

    /// Whether the coordinate is inside the region or on its boundary.
    ///
    /// Measured as the WGS 84 geodesic distance from the centre, the same measure as
    /// `CLLocation.distance(from:)`; an invalid coordinate is never inside.
    open override func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        circle?.contains(coordinate) ?? false
    }

    /// Apple's format: `CLCircularRegion (identifier:'home', center:<+37.33233141,-122.03121860>, radius:100.00m)`.
    open override var description: String {
        "CLCircularRegion (identifier:'\(identifier)', " + (circle?.descriptionFields ?? "") + ")"
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = CLCircularRegion(center: center, radius: radius, identifier: identifier)
        copy.copyNotifyFlags(from: self)
        return copy
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        // A decoded CLCircularRegion always has its circle (its encoder wrote it).
        if circle == nil { return nil }
    }
}
