/// A place's own position and size, for callers that hold a place index from `reverseLookup` (the
/// approximate-location regions weigh population and fall back to a locality's own point).
public struct PlaceRecord: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var population: Int
}

extension PlacesDatabase {
    /// The record of place `index` (as `ReverseHit.place` gives it); `nil` for an index out of range.
    public func placeRecord(_ index: Int) -> PlaceRecord? {
        guard index >= 0, index < tables.placeCount else { return nil }
        let (latitude, longitude) = tables.coordinate(ofPlace: index)
        return PlaceRecord(latitude: latitude, longitude: longitude, population: Int(tables.placePopulation(index)))
    }
}
