import LocationCore
import LocationPlaces
import Logging

/// Converts between coordinates and place names, offline.
///
/// On Linux the answers come from the places database that ships with the package (GeoNames places,
/// Natural Earth country borders), not from a network service, so:
/// - Reverse geocoding names the country whose border contains the point (at sea: the water body,
///   and the country only within 12 nautical miles of its coast), the nearest populated place in
///   that country, its subdivisions and its time zone. Street-level fields are `nil`.
/// - Forward geocoding understands place names: "Place", "Place, Country", "Place, Subdivision",
///   alternate and ASCII spellings. A street address is answered with its best place-level match.
/// - There is no rate limit, so `.network` never means "too many requests"; it means the database
///   is missing or unreadable (the error's `localizedDescription` says which and what to do).
///
/// Apple's rules hold: the lookup runs off the caller's thread; completion handlers run on the main
/// thread (the main queue, drained by `RunLoop.main.run()` and `dispatchMain()`; NOTE: under
/// `dispatchMain()` Linux's libdispatch drains it on a thread other than the process's first, so
/// `Thread.isMainThread` is `false` there, while blocks stay serialised on the main queue);
/// `isGeocoding` is `true` from the call until the completion handler is about to run;
/// `cancelGeocode()` calls the pending request's handler with `CLError.geocodeCanceled`. Apple tells apps not to start a request
/// while one is pending; here the newer request wins: the pending one is cancelled (its handler gets
/// `.geocodeCanceled`) and the new one runs. Cancelling the task that awaits an `async` form cancels
/// its request the same way. The `async` forms resume the task directly rather than through the main
/// queue, so they also work in a process whose main thread never drains it.
///
/// NOTE: `geocodePostalAddress(_:…)` takes a Contacts `CNPostalAddress`; Linux has no Contacts
/// framework, so those forms do not exist (`geocodeAddressString` takes the same address as text).
///
/// Thread-safe (its state is behind a lock), hence `Sendable`.
open class CLGeocoder: NSObject, @unchecked Sendable {
    /// Every geocoder's lookups; concurrent, so one slow request never holds up another geocoder's.
    static let queue = DispatchQueue(label: "corelocation.geocoder", qos: .userInitiated, attributes: .concurrent)

    let logger = Logger(label: "corelocation.geocoder")
    let backend: GeocodingBackendProvider
    /// The request whose outcome is still to be delivered, if any.
    let pending = Locked<GeocodeRequest?>(nil)

    /// A geocoder using the shared places database.
    public override init() {
        self.backend = PlacesDatabase.sharedBackend
        super.init()
    }

    /// A geocoder with another backend (tests).
    package init(backend: @escaping GeocodingBackendProvider) {
        self.backend = backend
        super.init()
    }

    /// Whether a request is pending: from the call until its completion handler is about to run.
    open var isGeocoding: Bool { pending.withLock { $0 != nil } }

    /// Cancels the pending request: its completion handler is called (on the main thread) with
    /// `CLError.geocodeCanceled` and no placemarks. Does nothing when no request is pending.
    open func cancelGeocode() {
        guard let request = pending.withLock({ slot in defer { slot = nil }; return slot }) else { return }
        deliverCancellation(of: request)
    }

    // MARK: Requests (completion handlers on the main thread)

    /// Looks up the place at a location (its coordinate; nothing else of it is used), with the
    /// country named in the current locale.
    ///
    /// The handler gets one placemark, or `CLError.geocodeFoundNoResult` (also for an invalid
    /// coordinate), or `CLError.network` when the places database is missing or unreadable.
    open func reverseGeocodeLocation(_ location: CLLocation, completionHandler: @escaping CLGeocodeCompletionHandler) {
        reverseGeocodeLocation(location, preferredLocale: nil, completionHandler: completionHandler)
    }

    /// Looks up the place at a location, with the country named in `locale` (`nil`: the current
    /// locale). Place and subdivision names are the database's (GeoNames) in every locale.
    open func reverseGeocodeLocation(
        _ location: CLLocation, preferredLocale locale: Locale?,
        completionHandler: @escaping CLGeocodeCompletionHandler
    ) {
        submit(GeocodeRequest(query: .reverse(location), locale: locale, delivery: .mainQueue(completionHandler)))
    }

    /// Looks up the places a text names: "Place", "Place, Country", "Place, Subdivision"; best first.
    ///
    /// A street address gets its best place-level match (the database has no streets).
    open func geocodeAddressString(_ addressString: String, completionHandler: @escaping CLGeocodeCompletionHandler) {
        geocodeAddressString(addressString, in: nil, preferredLocale: nil, completionHandler: completionHandler)
    }

    /// Looks up the places a text names, preferring those in `region` when it is circular (a
    /// `CLCircularRegion`); other regions are ignored.
    ///
    /// NOTE: with a `nil` region Apple prefers places near the user's approximate location when the
    /// app is authorized. We never consult the user's location here (so never prompt either):
    /// `nil` means no preference.
    open func geocodeAddressString(
        _ addressString: String, in region: CLRegion?, completionHandler: @escaping CLGeocodeCompletionHandler
    ) {
        geocodeAddressString(addressString, in: region, preferredLocale: nil, completionHandler: completionHandler)
    }

    /// Looks up the places a text names, preferring `region`, countries named in `locale`.
    open func geocodeAddressString(
        _ addressString: String, in region: CLRegion?, preferredLocale locale: Locale?,
        completionHandler: @escaping CLGeocodeCompletionHandler
    ) {
        submit(GeocodeRequest(
            query: .forward(addressString, preferring: region?.circle), locale: locale,
            delivery: .mainQueue(completionHandler)))
    }

    /// Looks up the places a text names, preferring those within `radius` metres of `centroid`.
    open func geocodeAddressString(
        _ addressString: String, inRegionCenteredAt centroid: CLLocationCoordinate2D,
        inRegionRadius radius: CLLocationDistance, preferredLocale locale: Locale?,
        completionHandler: @escaping CLGeocodeCompletionHandler
    ) {
        submit(GeocodeRequest(
            query: .forward(addressString, preferring: CLRegion.Circle(center: centroid, radius: radius)),
            locale: locale, delivery: .mainQueue(completionHandler)))
    }

    /// Looks up an AddressBook-style address: the values of `City`, `State` and `Country`, in that
    /// order, as "City, State, Country" (the database has no streets or postal codes).
    @available(iOS, deprecated: 11.0, message: "Use -geocodePostalAddress:completionHandler:")
    @available(macOS, deprecated: 10.13, message: "Use -geocodePostalAddress:completionHandler:")
    open func geocodeAddressDictionary(
        _ addressDictionary: [AnyHashable: Any], completionHandler: @escaping CLGeocodeCompletionHandler
    ) {
        geocodeAddressString(
            GeocodeQuery.text(ofAddressDictionary: addressDictionary), in: nil, preferredLocale: nil,
            completionHandler: completionHandler)
    }

    // MARK: async forms (Task cancellation cancels the request)

    /// `reverseGeocodeLocation(_:completionHandler:)` as an `async` call.
    public func reverseGeocodeLocation(_ location: CLLocation) async throws -> [CLPlacemark] {
        try await placemarks(for: .reverse(location), locale: nil)
    }

    /// `reverseGeocodeLocation(_:preferredLocale:completionHandler:)` as an `async` call.
    public func reverseGeocodeLocation(_ location: CLLocation, preferredLocale locale: Locale?) async throws -> [CLPlacemark] {
        try await placemarks(for: .reverse(location), locale: locale)
    }

    /// `geocodeAddressString(_:completionHandler:)` as an `async` call.
    public func geocodeAddressString(_ addressString: String) async throws -> [CLPlacemark] {
        try await placemarks(for: .forward(addressString, preferring: nil), locale: nil)
    }

    /// `geocodeAddressString(_:in:completionHandler:)` as an `async` call.
    public func geocodeAddressString(_ addressString: String, in region: CLRegion?) async throws -> [CLPlacemark] {
        try await placemarks(for: .forward(addressString, preferring: region?.circle), locale: nil)
    }

    /// `geocodeAddressString(_:in:preferredLocale:completionHandler:)` as an `async` call.
    public func geocodeAddressString(
        _ addressString: String, in region: CLRegion?, preferredLocale locale: Locale?
    ) async throws -> [CLPlacemark] {
        try await placemarks(for: .forward(addressString, preferring: region?.circle), locale: locale)
    }

    /// `geocodeAddressString(_:inRegionCenteredAt:inRegionRadius:preferredLocale:completionHandler:)`
    /// as an `async` call.
    public func geocodeAddressString(
        _ addressString: String, inRegionCenteredAt centroid: CLLocationCoordinate2D,
        inRegionRadius radius: CLLocationDistance, preferredLocale locale: Locale?
    ) async throws -> [CLPlacemark] {
        try await placemarks(
            for: .forward(addressString, preferring: CLRegion.Circle(center: centroid, radius: radius)),
            locale: locale)
    }

    /// `geocodeAddressDictionary(_:completionHandler:)` as an `async` call.
    @available(iOS, deprecated: 11.0, message: "Use -geocodePostalAddress:completionHandler:")
    @available(macOS, deprecated: 10.13, message: "Use -geocodePostalAddress:completionHandler:")
    public func geocodeAddressDictionary(_ addressDictionary: [AnyHashable: Any]) async throws -> [CLPlacemark] {
        try await placemarks(
            for: .forward(GeocodeQuery.text(ofAddressDictionary: addressDictionary), preferring: nil), locale: nil)
    }
}
