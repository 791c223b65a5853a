/// One answer from the places database, in `CLPlacemark`'s vocabulary (the `CoreLocation` module turns
/// it into a placemark; `locationctl` prints it).
///
/// A value type whose strings live in one shared, copy-on-write box: an answer carries ten strings, and
/// copying or dropping ten strings (a retain or release each) cost more than finding the answer — one box
/// is one retain, and answers at sea share prebuilt boxes (`PlacesDatabase.seaAnswers`).
public struct PlaceDescription: Sendable, Hashable, Codable {
    /// The placemark's name: the district, else the locality, else the water body, else the country.
    public var name: String? {
        get { storage.name }
        set { mutate { $0.name = newValue } }
    }
    /// The city or municipality (a district's city, not the district).
    public var locality: String? {
        get { storage.locality }
        set { mutate { $0.locality = newValue } }
    }
    /// The district or quarter of the locality the point is in, when the nearest place is one.
    public var subLocality: String? {
        get { storage.subLocality }
        set { mutate { $0.subLocality = newValue } }
    }
    public var subAdministrativeArea: String? {
        get { storage.subAdministrativeArea }
        set { mutate { $0.subAdministrativeArea = newValue } }
    }
    public var administrativeArea: String? {
        get { storage.administrativeArea }
        set { mutate { $0.administrativeArea = newValue } }
    }
    /// English short name from the database; `CLGeocoder` localises it from `isoCountryCode`.
    public var country: String? {
        get { storage.country }
        set { mutate { $0.country = newValue } }
    }
    public var isoCountryCode: String? {
        get { storage.isoCountryCode }
        set { mutate { $0.isoCountryCode = newValue } }
    }
    public var timeZoneIdentifier: String? {
        get { storage.timeZoneIdentifier }
        set { mutate { $0.timeZoneIdentifier = newValue } }
    }
    public var ocean: String? {
        get { storage.ocean }
        set { mutate { $0.ocean = newValue } }
    }
    public var inlandWater: String? {
        get { storage.inlandWater }
        set { mutate { $0.inlandWater = newValue } }
    }
    /// Radius in metres of the circle that stands for the place (`CLPlacemark.region`).
    public var radius: Double {
        get { storage.radius }
        set { mutate { $0.radius = newValue } }
    }
    /// GeoNames population of the place `name` names (the district, else the locality), when there is one.
    public var population: Int? {
        get { storage.population }
        set { mutate { $0.population = newValue } }
    }
    /// Reverse geocoding: the queried point. Forward geocoding: the place's coordinate.
    public var latitude: Double
    public var longitude: Double

    private var storage: Storage

    /// An answer whose strings, radius and population are an existing box (shared, never copied until
    /// mutated): of the answer's fields only the point is its own.
    init(strings: Storage, latitude: Double, longitude: Double) {
        storage = strings
        self.latitude = latitude
        self.longitude = longitude
    }

    public init(
        name: String? = nil, locality: String? = nil, subLocality: String? = nil,
        subAdministrativeArea: String? = nil,
        administrativeArea: String? = nil, country: String? = nil, isoCountryCode: String? = nil,
        timeZoneIdentifier: String? = nil, ocean: String? = nil, inlandWater: String? = nil,
        latitude: Double, longitude: Double, radius: Double, population: Int? = nil
    ) {
        storage = Storage(
            name: name, locality: locality, subLocality: subLocality, subAdministrativeArea: subAdministrativeArea,
            administrativeArea: administrativeArea, country: country, isoCountryCode: isoCountryCode,
            timeZoneIdentifier: timeZoneIdentifier, ocean: ocean, inlandWater: inlandWater, radius: radius,
            population: population)
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The box, for answers that share it.
    var sharedStrings: Storage { storage }

    private mutating func mutate(_ change: (Storage) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        change(storage)
    }

    public static func == (lhs: PlaceDescription, rhs: PlaceDescription) -> Bool {
        lhs.latitude == rhs.latitude && lhs.longitude == rhs.longitude && lhs.radius == rhs.radius
            && lhs.population == rhs.population
            && (lhs.storage === rhs.storage || lhs.storage.strings == rhs.storage.strings)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.strings)
        hasher.combine(latitude)
        hasher.combine(longitude)
        hasher.combine(radius)
        hasher.combine(population)
    }

    // MARK: Codable, with the keys the properties are named after

    private enum CodingKeys: String, CodingKey {
        case name, locality, subLocality, subAdministrativeArea, administrativeArea, country, isoCountryCode
        case timeZoneIdentifier, ocean, inlandWater, latitude, longitude, radius, population
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decodeIfPresent(String.self, forKey: .name),
            locality: try c.decodeIfPresent(String.self, forKey: .locality),
            subLocality: try c.decodeIfPresent(String.self, forKey: .subLocality),
            subAdministrativeArea: try c.decodeIfPresent(String.self, forKey: .subAdministrativeArea),
            administrativeArea: try c.decodeIfPresent(String.self, forKey: .administrativeArea),
            country: try c.decodeIfPresent(String.self, forKey: .country),
            isoCountryCode: try c.decodeIfPresent(String.self, forKey: .isoCountryCode),
            timeZoneIdentifier: try c.decodeIfPresent(String.self, forKey: .timeZoneIdentifier),
            ocean: try c.decodeIfPresent(String.self, forKey: .ocean),
            inlandWater: try c.decodeIfPresent(String.self, forKey: .inlandWater),
            latitude: try c.decode(Double.self, forKey: .latitude),
            longitude: try c.decode(Double.self, forKey: .longitude),
            radius: try c.decode(Double.self, forKey: .radius),
            population: try c.decodeIfPresent(Int.self, forKey: .population))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(locality, forKey: .locality)
        try c.encodeIfPresent(subLocality, forKey: .subLocality)
        try c.encodeIfPresent(subAdministrativeArea, forKey: .subAdministrativeArea)
        try c.encodeIfPresent(administrativeArea, forKey: .administrativeArea)
        try c.encodeIfPresent(country, forKey: .country)
        try c.encodeIfPresent(isoCountryCode, forKey: .isoCountryCode)
        try c.encodeIfPresent(timeZoneIdentifier, forKey: .timeZoneIdentifier)
        try c.encodeIfPresent(ocean, forKey: .ocean)
        try c.encodeIfPresent(inlandWater, forKey: .inlandWater)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(radius, forKey: .radius)
        try c.encodeIfPresent(population, forKey: .population)
    }
}

extension PlaceDescription {
    /// The box: the strings, and the radius and population, which answers for the same place share too.
    /// Mutated only through `mutate`, after the copy-on-write check, so sharing it across threads is safe (as
    /// with Array's buffer).
    ///
    /// Why the radius and population here and not beside the point: they are the place's, as the strings are,
    /// and an answer is then 24 bytes, not 48, where a batch copies every answer out of its remembered answers
    /// and, on a worker, through a ring to the caller (near places, alternating: one thread 153.1 → 150.3 ns a
    /// point, both cores 83.8 → 82.5).
    final class Storage: @unchecked Sendable {
        var name: String?
        var locality: String?
        var subLocality: String?
        var subAdministrativeArea: String?
        var administrativeArea: String?
        var country: String?
        var isoCountryCode: String?
        var timeZoneIdentifier: String?
        var ocean: String?
        var inlandWater: String?
        var radius: Double
        var population: Int?

        init(
            name: String?, locality: String?, subLocality: String? = nil, subAdministrativeArea: String?,
            administrativeArea: String?, country: String?, isoCountryCode: String?, timeZoneIdentifier: String?,
            ocean: String?, inlandWater: String?, radius: Double = 0, population: Int? = nil
        ) {
            self.name = name
            self.locality = locality
            self.subLocality = subLocality
            self.subAdministrativeArea = subAdministrativeArea
            self.administrativeArea = administrativeArea
            self.country = country
            self.isoCountryCode = isoCountryCode
            self.timeZoneIdentifier = timeZoneIdentifier
            self.ocean = ocean
            self.inlandWater = inlandWater
            self.radius = radius
            self.population = population
        }

        func copy() -> Storage {
            Storage(
                name: name, locality: locality, subLocality: subLocality, subAdministrativeArea: subAdministrativeArea,
                administrativeArea: administrativeArea, country: country, isoCountryCode: isoCountryCode,
                timeZoneIdentifier: timeZoneIdentifier, ocean: ocean, inlandWater: inlandWater, radius: radius,
                population: population)
        }

        /// Every string, for equality and hashing.
        var strings: [String?] {
            [name, locality, subLocality, subAdministrativeArea, administrativeArea, country, isoCountryCode,
             timeZoneIdentifier, ocean, inlandWater]
        }
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
