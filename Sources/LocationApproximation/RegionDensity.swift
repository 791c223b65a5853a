/// How finely a coarse cell (11 km) is split, from how many people live round it: the denser the
/// neighbourhood, the more people share a region of a given size, so the smaller a region can be
/// while still hiding its user among many (about 2 km in cities, 11 km in empty land).
enum RegionDensity {
    /// Radius round a coarse cell's centre within which its population is counted: about the circle
    /// through its corners.
    static let radius = 8_000.0

    /// Parts per side of the cell: 6 (1.8 km) from 150,000 people within 8 km (about a city's core,
    /// 750 a km²), 4 (2.75 km) from 30,000, 2 (5.5 km) from 4,000, else 1.
    static func split(population: Int) -> Int {
        switch population {
        case 150_000...: 6
        case 30_000...: 4
        case 4_000...: 2
        default: 1
        }
    }
}
