import LocationPlaces

/// A place: its name, administrative areas, country, time zone, coordinate and extent.
///
/// Apps receive placemarks from `CLGeocoder`. On Linux they come from the offline places database,
/// which knows populated places and the districts of cities, first- and second-level subdivisions,
/// countries and water bodies: `locality` is the city or municipality, `subLocality` the district or
/// quarter when the point is in one, `subAdministrativeArea` the county or département where the data has
/// one. The street-level fields `thoroughfare`, `subThoroughfare` and `postalCode` are always `nil`, and so
/// is `areasOfInterest`.
///
/// NOTE: `postalAddress` (a `CNPostalAddress`) and `init(location:name:postalAddress:)` do not exist
/// on Linux: there is no Contacts framework. `addressDictionary` carries the same fields.
///
/// `open`, with `init()`, as on Apple platforms, where tests mock placemarks by subclassing and
/// overriding the properties; `addressDictionary` and `description` read the (overridable)
/// properties.
open class CLPlacemark: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// Every value of a placemark; immutable once made.
    struct Fields {
        var location: CLLocation?
        var region: CLRegion?
        var timeZone: TimeZone?
        var name: String?
        var thoroughfare: String?
        var subThoroughfare: String?
        var locality: String?
        var subLocality: String?
        var administrativeArea: String?
        var subAdministrativeArea: String?
        var postalCode: String?
        var isoCountryCode: String?
        var country: String?
        var inlandWater: String?
        var ocean: String?
        var areasOfInterest: [String]?
    }

    private let fields: Fields

    // MARK: Initializers

    /// An empty placemark (every property `nil`), for subclasses that mock placemarks.
    public override init() {
        self.fields = Fields()
        super.init()
    }

    /// A placemark with the values of another (read through its properties, so a subclass's
    /// overrides are copied too).
    public init(placemark: CLPlacemark) {
        self.fields = Fields(
            location: placemark.location, region: placemark.region, timeZone: placemark.timeZone,
            name: placemark.name, thoroughfare: placemark.thoroughfare,
            subThoroughfare: placemark.subThoroughfare, locality: placemark.locality,
            subLocality: placemark.subLocality, administrativeArea: placemark.administrativeArea,
            subAdministrativeArea: placemark.subAdministrativeArea, postalCode: placemark.postalCode,
            isoCountryCode: placemark.isoCountryCode, country: placemark.country,
            inlandWater: placemark.inlandWater, ocean: placemark.ocean,
            areasOfInterest: placemark.areasOfInterest)
        super.init()
    }

    /// The placemark for one answer of the places database.
    ///
    /// `location` is the answer's coordinate (the queried point for reverse geocoding, the place for
    /// forward geocoding) with the place's radius as its horizontal accuracy; `region` is a circle of
    /// that radius identified as Apple's are (`<+52.52000000,+13.40500000> radius 30000.00`).
    /// `country` is the locale's name for `isoCountryCode`, else the database's English name.
    package init(place: PlaceDescription, locale: Locale, timestamp: Date = Date()) {
        let center = CLLocationCoordinate2D(latitude: place.latitude, longitude: place.longitude)
        let radius = place.radius.isFinite && place.radius >= 0 ? place.radius : 0
        let identifier = String(format: "<%+.8f,%+.8f> radius %.2f", center.latitude, center.longitude, radius)
        self.fields = Fields(
            location: CLLocation(
                coordinate: center, altitude: 0, horizontalAccuracy: radius, verticalAccuracy: -1,
                timestamp: timestamp),
            region: CLCircularRegion(center: center, radius: radius, identifier: identifier),
            timeZone: place.timeZoneIdentifier.flatMap(TimeZone.init(identifier:)),
            name: place.name,
            locality: place.locality,
            subLocality: place.subLocality,
            administrativeArea: place.administrativeArea,
            subAdministrativeArea: place.subAdministrativeArea,
            isoCountryCode: place.isoCountryCode,
            country: place.country(in: locale),
            inlandWater: place.inlandWater,
            ocean: place.ocean)
        super.init()
    }

    // MARK: Location

    /// The place's coordinate; its horizontal accuracy is the radius of `region`.
    open var location: CLLocation? { fields.location }

    /// The extent of the place: a `CLCircularRegion`.
    open var region: CLRegion? { fields.region }

    /// The place's IANA time zone.
    open var timeZone: TimeZone? { fields.timeZone }

    // MARK: Address

    /// The name of the place: the locality, else the body of water, else the country.
    open var name: String? { fields.name }

    /// The street. Always `nil` offline: the database has no streets.
    open var thoroughfare: String? { fields.thoroughfare }

    /// The house number. Always `nil` offline.
    open var subThoroughfare: String? { fields.subThoroughfare }

    /// The city or town (the nearest populated place in the country, for reverse geocoding).
    open var locality: String? { fields.locality }

    /// The neighbourhood. Always `nil` offline.
    open var subLocality: String? { fields.subLocality }

    /// The first-level subdivision: state, province, Land, région.
    open var administrativeArea: String? { fields.administrativeArea }

    /// The second-level subdivision (county, district). Always `nil` offline: the database has none.
    open var subAdministrativeArea: String? { fields.subAdministrativeArea }

    /// The postal code. Always `nil` offline.
    open var postalCode: String? { fields.postalCode }

    /// The ISO 3166-1 alpha-2 code of the country (`DE`).
    open var isoCountryCode: String? { fields.isoCountryCode }

    /// The country's name in the geocoder's preferred locale.
    open var country: String? { fields.country }

    /// The lake or other inland water at the place.
    open var inlandWater: String? { fields.inlandWater }

    /// The ocean or sea at the place.
    open var ocean: String? { fields.ocean }

    /// Points of interest at the place. Always `nil` offline.
    open var areasOfInterest: [String]? { fields.areasOfInterest }

    /// The address with the AddressBook keys: `Name`, `City`, `SubLocality`, `State`,
    /// `SubAdministrativeArea`, `Country`, `CountryCode` and `FormattedAddressLines` (only the keys that have
    /// values).
    @available(iOS, deprecated: 11.0, message: "Use @properties")
    @available(macOS, deprecated: 10.13, message: "Use @properties")
    open var addressDictionary: [AnyHashable: Any]? {
        var dictionary: [AnyHashable: Any] = [:]
        let values: [(String, String?)] = [
            ("Name", name), ("City", locality), ("SubLocality", subLocality), ("State", administrativeArea),
            ("SubAdministrativeArea", subAdministrativeArea), ("Country", country),
            ("CountryCode", isoCountryCode),
        ]
        for case (let key, let value?) in values { dictionary[key] = value }
        let lines = formattedAddressLines
        if !lines.isEmpty { dictionary["FormattedAddressLines"] = lines }
        return dictionary.isEmpty ? nil : dictionary
    }

    /// The address as Apple formats it on lines: the locality (else the name), the subdivision when
    /// it differs, the country.
    var formattedAddressLines: [String] {
        var lines: [String] = []
        for case let line? in [locality ?? name, administrativeArea, country] where !lines.contains(line) {
            lines.append(line)
        }
        return lines
    }

    /// Apple's shape: `Berlin, Germany @ <+52.52000000,+13.40500000> +/- 30000.00m, region CLCircularRegion (…)`.
    open override var description: String {
        var parts = formattedAddressLines
        if let name, parts.first != name { parts.insert(name, at: 0) }
        var text = parts.joined(separator: ", ")
        if let location {
            text += String(
                format: " @ <%+.8f,%+.8f> +/- %.2fm", location.coordinate.latitude, location.coordinate.longitude,
                location.horizontalAccuracy)
        }
        if let region { text += ", region \(region.description)" }
        return text
    }

    // MARK: NSCopying, NSSecureCoding

    /// Immutable, so a copy is the object itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    public class var supportsSecureCoding: Bool { true }

    // NOTE: keys are ours; archives are not interchangeable with Apple's.
    private enum CodingKey {
        static let location = "location"
        static let region = "region"
        static let timeZone = "timeZone"
        static let areasOfInterest = "areasOfInterest"
        static var strings: [(String, WritableKeyPath<Fields, String?>)] { [
            ("name", \.name), ("thoroughfare", \.thoroughfare), ("subThoroughfare", \.subThoroughfare),
            ("locality", \.locality), ("subLocality", \.subLocality), ("administrativeArea", \.administrativeArea),
            ("subAdministrativeArea", \.subAdministrativeArea), ("postalCode", \.postalCode),
            ("isoCountryCode", \.isoCountryCode), ("country", \.country), ("inlandWater", \.inlandWater),
            ("ocean", \.ocean),
        ] }
    }

    public required init?(coder: NSCoder) {
        // NOTE: corelibs' NSKeyedUnarchiver fails the whole decode when an absent key is decoded
        // (Darwin returns nil), so optional values are looked up only when present.
        var fields = Fields()
        for (key, path) in CodingKey.strings where coder.containsValue(forKey: key) {
            guard let value = coder.decodeObject(of: NSString.self, forKey: key) else { return nil }
            fields[keyPath: path] = value as String
        }
        if coder.containsValue(forKey: CodingKey.location) {
            guard let location = coder.decodeObject(of: CLLocation.self, forKey: CodingKey.location) else { return nil }
            fields.location = location
        }
        if coder.containsValue(forKey: CodingKey.region) {
            guard let region = coder.decodeObject(of: CLRegion.self, forKey: CodingKey.region) else { return nil }
            fields.region = region
        }
        if coder.containsValue(forKey: CodingKey.timeZone) {
            guard let identifier = coder.decodeObject(of: NSString.self, forKey: CodingKey.timeZone),
                  let timeZone = TimeZone(identifier: identifier as String)
            else { return nil }
            fields.timeZone = timeZone
        }
        if coder.containsValue(forKey: CodingKey.areasOfInterest) {
            guard let areas = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: CodingKey.areasOfInterest)
                as? [String]
            else { return nil }
            fields.areasOfInterest = areas
        }
        self.fields = fields
        super.init()
    }

    open func encode(with coder: NSCoder) {
        for (key, path) in CodingKey.strings {
            if let value = fields[keyPath: path] { coder.encode(value as NSString, forKey: key) }
        }
        if let location = fields.location { coder.encode(location, forKey: CodingKey.location) }
        if let region = fields.region { coder.encode(region, forKey: CodingKey.region) }
        if let timeZone = fields.timeZone { coder.encode(timeZone.identifier as NSString, forKey: CodingKey.timeZone) }
        if let areas = fields.areasOfInterest {
            coder.encode(areas.map { $0 as NSString } as NSArray, forKey: CodingKey.areasOfInterest)
        }
    }
}
