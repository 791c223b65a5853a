import Foundation
import LocationPlaces

/// The text and JSON forms of a place shared by `reverse` and `geocode`, in `CLPlacemark`'s terms.
enum PlaceFormatting {
    /// `Mitte, Berlin, Berlin, Germany (DE) · Europe/Berlin · 52.52000, 13.40500` (district first, when there is one).
    static func line(_ place: PlaceDescription, locale: Locale) -> String {
        var names: [String] = []
        for case let value? in [place.subLocality, place.name, place.locality, place.ocean, place.inlandWater]
        where !names.contains(value) {
            names.append(value)
        }
        if let administrativeArea = place.administrativeArea { names.append(administrativeArea) }
        if let country = place.country(in: locale) {
            names.append(place.isoCountryCode.map { "\(country) (\($0))" } ?? country)
        }
        var parts = [names.joined(separator: ", ")]
        if let timeZone = place.timeZoneIdentifier { parts.append(timeZone) }
        parts.append(String(format: "%.5f, %.5f", place.latitude, place.longitude))
        return parts.filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// `CLPlacemark`'s property names; nil values are left out.
    struct Placemark: Encodable {
        struct Location: Encodable { var latitude: Double, longitude: Double }
        struct Region: Encodable { var latitude: Double, longitude: Double, radius: Double }

        var name: String?
        var locality: String?
        var subLocality: String?
        var subAdministrativeArea: String?
        var administrativeArea: String?
        var country: String?
        var isoCountryCode: String?
        var timeZone: String?
        var ocean: String?
        var inlandWater: String?
        var location: Location
        var region: Region
    }

    static func placemark(_ place: PlaceDescription, locale: Locale) -> Placemark {
        Placemark(
            name: place.name, locality: place.locality, subLocality: place.subLocality,
            subAdministrativeArea: place.subAdministrativeArea,
            administrativeArea: place.administrativeArea, country: place.country(in: locale),
            isoCountryCode: place.isoCountryCode, timeZone: place.timeZoneIdentifier, ocean: place.ocean,
            inlandWater: place.inlandWater,
            location: .init(latitude: place.latitude, longitude: place.longitude),
            region: .init(latitude: place.latitude, longitude: place.longitude, radius: place.radius))
    }

    /// One line of JSON: an object for one placemark, an array for several. Keys sorted, so the
    /// output is the same on every run (Foundation's encoder keeps no declaration order here).
    static func json<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
