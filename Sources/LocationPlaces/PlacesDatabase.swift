/// The offline world database: countries, subdivisions, populated places, country polygons.
///
/// STUB: the interface other modules build against; the implementation lands with the reader.
public final class PlacesDatabase: Sendable {
    /// Opens (memory-maps) the database at `path`, validating its header and indexes.
    public static func open(path: String) throws(PlacesDatabaseError) -> PlacesDatabase {
        throw .missing(searched: [path])
    }

    /// The process-wide database, opened on first use from the first of: `$CORELOCATION_PLACES_DB`, the
    /// package's resources beside the running executable, `/usr/local/share/corelocation/places.bin`,
    /// `/usr/share/corelocation/places.bin`. The result (or the error) is kept.
    public static var shared: Result<PlacesDatabase, PlacesDatabaseError> {
        .failure(.missing(searched: []))
    }

    /// Country (polygon), nearest locality in that country, subdivision, time zone; at sea the water
    /// body and, within 12 nautical miles of a coast, that coast's country. `nil` for coordinates that are
    /// not finite or out of range.
    public func reverseGeocode(latitude: Double, longitude: Double) -> PlaceDescription? {
        nil
    }

    /// Place-level forward geocoding: "Place", "Place, Country", "Place, Subdivision[, Country]"; best
    /// first, at most `limit`. Empty for no match (and for empty or over-long text).
    public func search(_ text: String, preferring region: SearchRegion? = nil, limit: Int = 10) -> [PlaceDescription] {
        []
    }
}
