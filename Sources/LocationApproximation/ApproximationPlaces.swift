/// What a position's region must keep: the country (by polygon), the locality reverse geocoding names
/// there, and whether the position is on land, in a territorial sea or at sea. Two positions with equal
/// keys in one cell are in one region; the reported point has the key of the position it stands for.
struct LocalityKey: Hashable, Sendable {
    enum Surface: UInt8, Sendable {
        case land, territorialSea, sea
    }

    /// The country's index in the places database, -1 for none (at sea).
    var country: Int32
    /// The locality's place index, -1 where reverse geocoding names none.
    var locality: Int32
    var surface: Surface
}

/// The little the regions need from the places database, behind a protocol so that the adapter can
/// follow the database's API (`PlacesDatabaseApproximationPlaces` is the one over today's).
protocol ApproximationPlaces: Sendable {
    /// The key of a valid position (latitude within ±90°, longitude within ±180°), `nil` otherwise.
    func localityKey(latitude: Double, longitude: Double) -> LocalityKey?
    /// About how many people live in the places whose extent (their population on a disc at 5,000
    /// people a km²) reaches within `radius` metres of the position: a city of millions is one point
    /// in the database, and its outskirts are dense too.
    func populationNear(latitude: Double, longitude: Double, radius: Double) -> Int
    /// A locality's own position (the place a `LocalityKey.locality` names).
    func localityPosition(_ locality: Int32) -> (latitude: Double, longitude: Double)?
}
