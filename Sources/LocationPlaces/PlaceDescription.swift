/// One answer from the places database, in `CLPlacemark`'s vocabulary (the `CoreLocation` module turns
/// it into a placemark; `locationctl` prints it).
public struct PlaceDescription: Sendable, Hashable, Codable {
    /// The placemark's name: the locality, else the water body, else the country.
    public var name: String?
    public var locality: String?
    public var subAdministrativeArea: String?
    public var administrativeArea: String?
    /// English short name from the database; `CLGeocoder` localises it from `isoCountryCode`.
    public var country: String?
    public var isoCountryCode: String?
    public var timeZoneIdentifier: String?
    public var ocean: String?
    public var inlandWater: String?
    /// Reverse geocoding: the queried point. Forward geocoding: the place's coordinate.
    public var latitude: Double
    public var longitude: Double
    /// Radius in metres of the circle that stands for the place (`CLPlacemark.region`).
    public var radius: Double
    /// GeoNames population of the locality, when there is one.
    public var population: Int?

    public init(
        name: String? = nil, locality: String? = nil, subAdministrativeArea: String? = nil,
        administrativeArea: String? = nil, country: String? = nil, isoCountryCode: String? = nil,
        timeZoneIdentifier: String? = nil, ocean: String? = nil, inlandWater: String? = nil,
        latitude: Double, longitude: Double, radius: Double, population: Int? = nil
    ) {
        self.name = name
        self.locality = locality
        self.subAdministrativeArea = subAdministrativeArea
        self.administrativeArea = administrativeArea
        self.country = country
        self.isoCountryCode = isoCountryCode
        self.timeZoneIdentifier = timeZoneIdentifier
        self.ocean = ocean
        self.inlandWater = inlandWater
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.population = population
    }
}

/// A circle that forward geocoding prefers results inside (`geocodeAddressString(_:in:)`).
public struct SearchRegion: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var radius: Double

    public init(latitude: Double, longitude: Double, radius: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }
}
