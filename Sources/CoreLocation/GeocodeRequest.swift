import LocationPlaces

/// What a geocoding request asks the places database.
enum GeocodeQuery: Sendable, Equatable {
    case reverse(latitude: Double, longitude: Double)
    case forward(text: String, region: SearchRegion?)

    /// At most this many placemarks answer a forward request, best first. Apple returns one for most
    /// requests and several when the text is ambiguous; a few close candidates serve both.
    static let forwardResultLimit = 5

    /// Whether the query can have an answer at all: a valid coordinate, a non-blank text of sane
    /// length. Others are answered with `.geocodeFoundNoResult` without opening the database.
    var isAnswerable: Bool {
        switch self {
        case .reverse(let latitude, let longitude):
            return CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: latitude, longitude: longitude))
        case .forward(let text, _):
            // The database's own bound: longer text is no place name, so it is not even sent there.
            return text.utf8.count <= PlacesDatabase.maximumSearchBytes
                && !text.allSatisfy { $0.isWhitespace || $0.isNewline }
        }
    }

    /// The database's answer, best first.
    func places(in backend: any GeocodingBackend) -> [PlaceDescription] {
        switch self {
        case .reverse(let latitude, let longitude):
            return backend.reverseGeocode(latitude: latitude, longitude: longitude).map { [$0] } ?? []
        case .forward(let text, let region):
            return backend.search(text, preferring: region, limit: Self.forwardResultLimit)
        }
    }
}

/// One request of a `CLGeocoder`: its query, its locale and who is told the outcome.
///
/// `@unchecked Sendable`: the completion handler is the app's (not `Sendable`), and the geocoder
/// calls it exactly once, on the main queue, after taking the request out of its pending slot
/// under its lock.
final class GeocodeRequest: @unchecked Sendable {
    enum Delivery {
        /// Apple's completion-handler forms: on the main queue.
        case mainQueue(CLGeocodeCompletionHandler)
        /// The `async` forms: wherever the outcome is known (the awaiting task resumes on its own
        /// executor anyway, and so does not depend on the main queue being drained).
        case direct(@Sendable (Result<[CLPlacemark], CLError>) -> Void)
    }

    let query: GeocodeQuery
    let locale: Locale
    let delivery: Delivery

    init(query: GeocodeQuery, locale: Locale?, delivery: Delivery) {
        self.query = query
        self.locale = locale ?? Locale.current
        self.delivery = delivery
    }
}

extension GeocodeQuery {
    /// Reverse geocoding of a location's coordinate (its accuracy, altitude and time play no part).
    static func reverse(_ location: CLLocation) -> GeocodeQuery {
        .reverse(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude)
    }

    /// Forward geocoding, preferring a circle when it is a usable one (valid centre, positive finite
    /// radius); anything else is no preference.
    static func forward(_ text: String, preferring circle: CLRegion.Circle?) -> GeocodeQuery {
        guard let circle, CLLocationCoordinate2DIsValid(circle.center), circle.radius.isFinite, circle.radius > 0
        else { return .forward(text: text, region: nil) }
        return .forward(
            text: text,
            region: SearchRegion(latitude: circle.center.latitude, longitude: circle.center.longitude, radius: circle.radius))
    }

    /// "City, State, Country" from an AddressBook dictionary: the string values of those keys that
    /// have one, in that order (streets and postal codes are beyond the places database).
    static func text(ofAddressDictionary dictionary: [AnyHashable: Any]) -> String {
        ["City", "State", "Country"]
            .compactMap { dictionary[$0] as? String }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
            .joined(separator: ", ")
    }
}
