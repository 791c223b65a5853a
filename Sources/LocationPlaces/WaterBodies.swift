/// Names for water. Natural Earth's admin-0 polygons carry no water names, so a point outside every
/// polygon is named by this small rule set of coarse latitude/longitude boxes (first match wins):
///
/// 1. Inland water: the Caspian Sea (36.5–47.5°N, 46.5–55.5°E) — the only large lake that is a hole in the
///    polygons (the Great Lakes, Victoria, Baikal, Ladoga are inside countries; checked on the data).
/// 2. Marginal seas: Black, Mediterranean, Red, Persian Gulf, Baltic, North, Caribbean, Gulf of Mexico.
/// 3. Basins: Arctic north of 66.5°N, Southern south of 60°S; otherwise Atlantic between the Americas and
///    20°E (its western edge north of the equator: 77°W up to 9°N, 83.5°W up to 31°N, 100°W beyond; south
///    of the equator 69°W, and Cape Horn's 67.3°W south of 56°S); Indian from 20°E to ~100°E north of the
///    equator (up to 30°N) and south of it to 105°E (to 9°S) or 147°E (beyond 9°S); Pacific elsewhere.
///
/// Boxes are coarse on purpose: the polygons decide land; these only name water that is already known
/// to be water, so a box may overlap land freely.
public enum WaterBody: String, Sendable, Hashable, CaseIterable {
    case caspianSea = "Caspian Sea"
    case blackSea = "Black Sea"
    case mediterraneanSea = "Mediterranean Sea"
    case redSea = "Red Sea"
    case persianGulf = "Persian Gulf"
    case balticSea = "Baltic Sea"
    case northSea = "North Sea"
    case caribbeanSea = "Caribbean Sea"
    case gulfOfMexico = "Gulf of Mexico"
    case arcticOcean = "Arctic Ocean"
    case southernOcean = "Southern Ocean"
    case atlanticOcean = "Atlantic Ocean"
    case indianOcean = "Indian Ocean"
    case pacificOcean = "Pacific Ocean"

    /// The name, as `CLPlacemark.ocean` / `inlandWater` give it.
    public var name: String { rawValue }

    /// `true` for `CLPlacemark.inlandWater`, `false` for `ocean`.
    public var isInland: Bool { self == .caspianSea }

    /// The water at a point known to be outside every country polygon.
    public static func at(latitude lat: Double, longitude lon: Double) -> WaterBody {
        if lat > 36.5, lat < 47.5, lon > 46.5, lon < 55.5 { return .caspianSea }
        if let sea = marginalSea(lat, lon) { return sea }
        return basin(lat, lon)
    }

    private static func marginalSea(_ lat: Double, _ lon: Double) -> WaterBody? {
        // Black Sea and the Sea of Azov; the Bosporus and Marmara stay Mediterranean.
        if lat > 40.9, lat < 47.5, lon > 27.3, lon < 42, lon > 29.5 || lat > 41.3 { return .blackSea }
        // Mediterranean: Gibraltar to the Levant, without the Bay of Biscay (north of 42°N west of 2.5°E).
        if lat > 30, lat < 46, lon > -5.6, lon < 36.5, !(lat > 42 && lon < 2.5) { return .mediterraneanSea }
        if lat > 12.6, lat < 30, lon > 32, lon < 43.6 { return .redSea }
        if lat > 23.8, lat < 30.5, lon > 47.5, lon < 56.4 { return .persianGulf }
        // Baltic with the Kattegat; the Skagerrak (north of 57.3°N west of 11.5°E) is the North Sea.
        if lat > 53, lat < 66, lon > 9.8, lon < 31, !(lat > 57.3 && lon < 11.5) { return .balticSea }
        if isNorthSea(lat, lon) { return .northSea }
        if isCaribbean(lat, lon) { return .caribbeanSea }
        if isGulfOfMexico(lat, lon) { return .gulfOfMexico }
        return nil
    }

    private static func isNorthSea(_ lat: Double, _ lon: Double) -> Bool {
        guard lat > 51, lat < 61, lon < 11.5 else { return false }
        // Western edge along Britain's east coast: England, Scotland, then Orkney–Shetland.
        let west = lat < 55.5 ? -2.0 : lat < 58.7 ? -4.5 : -3.0
        return lon > west && (lon < 9.8 || lat > 57.3)
    }

    private static func isCaribbean(_ lat: Double, _ lon: Double) -> Bool {
        guard lat > 9, lat < 22.7, lon > -89, lon < -60 else { return false }
        // West: Central America's Caribbean coast (the Pacific coast lies farther west below 14.6°N).
        let west = lat < 11 ? -83.6 : lat < 14.6 ? -84.0 : lat < 18.5 ? -89.0 : -88.0
        guard lon > west else { return false }
        // North: Cuba's, Hispaniola's and Puerto Rico's south coasts; Yucatán channel to the Gulf.
        let north = lon < -85 ? 21.5 : lon < -80 ? 22.7 : lon < -74 ? 21.6 : lon < -68.5 ? 19.0 : 18.2
        guard lat < north else { return false }
        // East: the Lesser Antilles.
        let east = lat < 16.5 ? -61.3 : lat < 18.5 ? -62.5 : -64.5
        return lon < east
    }

    private static func isGulfOfMexico(_ lat: Double, _ lon: Double) -> Bool {
        guard lat > 18, lat < 31, lon > -98, lon < -81 else { return false }
        // East: north of Cuba (or west of its tip), and Florida's Gulf coast, not its Atlantic one.
        guard lon < -84.9 || lat > 22.8 else { return false }
        return lat > 27.5 ? lon < -82 : true
    }

    private static func basin(_ lat: Double, _ lon: Double) -> WaterBody {
        if lat > 66.5 { return .arcticOcean }
        if lat < -60 { return .southernOcean }
        if lat >= 0 {
            if lon >= 20 {
                if lon < 100 {
                    if lat <= 30 { return .indianOcean }
                    return lat > 60 ? .arcticOcean : lon < 45 ? .atlanticOcean : .indianOcean
                }
                return .pacificOcean
            }
            let atlanticWest = lat < 9 ? -77.0 : lat < 31 ? -83.5 : -100.0
            return lon >= atlanticWest ? .atlanticOcean : .pacificOcean
        }
        let atlanticWest = lat < -56 ? -67.3 : -69.0
        if lon >= atlanticWest, lon < 20 { return .atlanticOcean }
        let indianEast = lat > -9 ? 105.0 : 147.0
        if lon >= 20, lon < indianEast { return .indianOcean }
        return .pacificOcean
    }

    /// Every latitude the rules above compare with. Between two consecutive edges no answer can change,
    /// so a grid cell with no edge inside it is one water body throughout (`CellEntries`); a test checks
    /// this against the rules on every sea cell. Keep these in step with the rules.
    static let latitudeEdges: [Double] = [
        -60, -56, -9, 0, 9, 11, 12.6, 14.6, 16.5, 18, 18.2, 18.5, 19, 21.5, 21.6, 22.7, 22.8, 23.8, 27.5, 30,
        30.5, 31, 36.5, 40.9, 41.3, 42, 46, 47.5, 51, 53, 55.5, 57.3, 58.7, 60, 61, 66, 66.5,
    ]

    /// Every longitude the rules above compare with, and the nautical zones' edges.
    static let longitudeEdges: [Double] = [
        -100, -98, -89, -88, -85, -84.9, -84, -83.6, -83.5, -82, -81, -80, -77, -74, -69, -68.5, -67.3,
        -64.5, -62.5, -61.3, -60, -5.6, -4.5, -3, -2, 2.5, 9.8, 11.5, 20, 27.3, 29.5, 31, 32, 36.5, 42, 43.6,
        45, 46.5, 47.5, 55.5, 56.4, 100, 105, 147,
    ] + (-12..<12).map { 7.5 + 15 * Double($0) }

    /// Position in `allCases` (a switch: searching `allCases` costs more than the rules themselves).
    var ordinal: Int {
        switch self {
        case .caspianSea: 0
        case .blackSea: 1
        case .mediterraneanSea: 2
        case .redSea: 3
        case .persianGulf: 4
        case .balticSea: 5
        case .northSea: 6
        case .caribbeanSea: 7
        case .gulfOfMexico: 8
        case .arcticOcean: 9
        case .southernOcean: 10
        case .atlanticOcean: 11
        case .indianOcean: 12
        case .pacificOcean: 13
        }
    }

    /// The nautical time zone of a longitude at sea, as an IANA `Etc/GMT±H` identifier. IANA's sign is
    /// inverted (POSIX style): 75°W is five hours behind UTC, `Etc/GMT+5`. Zones are 15° wide centred on
    /// multiples of 15°; the 180° zone is split at the antimeridian (−12 east of it, +12 west).
    public static func nauticalTimeZone(longitude: Double) -> String {
        nauticalZones[nauticalZoneIndex(longitude: longitude)]
    }

    /// 12 − hours east of UTC: the index of `nauticalZones`.
    static func nauticalZoneIndex(longitude: Double) -> Int {
        let hours = Int((longitude / 15).rounded(.toNearestOrAwayFromZero))
        return 12 - Swift.max(-12, Swift.min(12, hours))
    }

    /// Indexed by 12 − hours east of UTC; literals, so looking one up allocates nothing.
    static let nauticalZones: [String] = [
        "Etc/GMT-12", "Etc/GMT-11", "Etc/GMT-10", "Etc/GMT-9", "Etc/GMT-8", "Etc/GMT-7", "Etc/GMT-6",
        "Etc/GMT-5", "Etc/GMT-4", "Etc/GMT-3", "Etc/GMT-2", "Etc/GMT-1", "Etc/GMT",
        "Etc/GMT+1", "Etc/GMT+2", "Etc/GMT+3", "Etc/GMT+4", "Etc/GMT+5", "Etc/GMT+6", "Etc/GMT+7",
        "Etc/GMT+8", "Etc/GMT+9", "Etc/GMT+10", "Etc/GMT+11", "Etc/GMT+12",
    ]
}
