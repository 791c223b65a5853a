import LocationPlaces

/// What `CLGeocoder` asks of the places database.
///
/// `PlacesDatabase` is the real one; tests substitute their own (one that blocks until released, to
/// exercise cancellation and a second request deterministically). Both calls are synchronous and may
/// take a while, so the geocoder makes them off the caller's thread.
package protocol GeocodingBackend: Sendable {
    func reverseGeocode(latitude: Double, longitude: Double) -> PlaceDescription?
    func search(_ text: String, preferring region: SearchRegion?, limit: Int) -> [PlaceDescription]
}

extension PlacesDatabase: GeocodingBackend {}

/// Where a geocoder finds its backend: called on the geocoder's worker queue for every request, so
/// opening the database (the first time) never happens on the caller's thread.
package typealias GeocodingBackendProvider = @Sendable () -> Result<any GeocodingBackend, PlacesDatabaseError>

extension PlacesDatabase {
    /// The process-wide database as a geocoding backend (the database's own first-use rule applies).
    static let sharedBackend: GeocodingBackendProvider = {
        PlacesDatabase.shared.map { $0 as any GeocodingBackend }
    }
}
