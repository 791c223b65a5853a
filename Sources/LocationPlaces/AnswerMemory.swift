/// What reverse geocoding answers leave for the next in a batch answered in spatial order, where
/// consecutive points mostly have the same nearest place: the last place's distance bounds the next search,
/// the answers built for recent places are shared instead of built again, and the last candidate leaf is
/// used again while the points stay in it. A single call remembers nothing.
struct AnswerMemory {
    /// False for a single call: nothing is kept.
    let remembers: Bool
    /// The polygon country and the place of the last search that found one.
    var searchCountry = -1
    var searchPlace = -1
    /// The answers built for recent places (a batch's only).
    let recentAnswers: RecentAnswers?
    /// The last candidate leaf a point descended to, its grid cell and its tree's country. A point of the same
    /// cell inside the leaf's box descends to the same leaf, and in Morton order about half the points near
    /// places follow one in their leaf: they skip the descent (a node a level, down to seven levels).
    private(set) var leafCell = -1
    private(set) var leafCountry = -1
    private var lastLeaf = CandidateLeaf(word: 0, inside: false, south: 0, west: 0, size: 0)

    /// The strings of the last answer off a coast (`PlacesDatabase.waterAnswer`) and what they answered.
    private var waterKey: WaterAnswerKey?
    private var waterStrings: PlaceDescription.Storage?

    init(remembers: Bool) {
        self.remembers = remembers
        recentAnswers = remembers ? RecentAnswers() : nil
    }

    /// The kept leaf, when it is in grid cell `cell`, in `country`'s tree (any tree when `nil`), and holds
    /// the point.
    @inline(__always)
    func leaf(cell: Int, country: Int?, latitude: Double, longitude: Double) -> CandidateLeaf? {
        guard leafCell == cell, country == nil || country == leafCountry,
              lastLeaf.contains(latitude: latitude, longitude: longitude) else { return nil }
        return lastLeaf
    }

    @inline(__always)
    mutating func remember(_ leaf: CandidateLeaf, cell: Int, country: Int) {
        guard remembers else { return }
        (lastLeaf, leafCell, leafCountry) = (leaf, cell, country)
    }

    /// The kept strings of an answer off a coast, when they answered `key`.
    @inline(__always)
    func waterAnswer(_ key: WaterAnswerKey) -> PlaceDescription.Storage? {
        waterKey == key ? waterStrings : nil
    }

    mutating func keepWaterAnswer(_ strings: PlaceDescription.Storage, for key: WaterAnswerKey) {
        guard remembers else { return }
        (waterKey, waterStrings) = (key, strings)
    }
}

/// What an answer off a coast depends on: the country, the water body (`WaterBody.ordinal`) and the zone
/// (the country's `TZNS` index, or `-2 − ` the nautical zone's, or -1 for none).
struct WaterAnswerKey: Equatable {
    var country: Int
    var water: Int
    var zone: Int
}
