/// GRID's answer per 0.5° cell in two bytes, built at open (518 KB instead of GRID's 1 MB, which random
/// points miss the caches on): a whole-land cell's country, an open-sea cell's finished answer (water body
/// and nautical zone, when the cell has one of each throughout), or "ask GRID". Open sea and whole-land
/// cells are ~85% of the Earth, and this answers them with one load and no geometry.
final class CellEntries: @unchecked Sendable {
    /// A cell the polygons must decide, or a sea cell that two water bodies or zones share.
    static let general: UInt16 = 0xFFFF
    /// Set on an open-sea cell's entry; the rest is its index in `PlacesDatabase.seaAnswers`.
    static let seaFlag: UInt16 = 0x8000

    /// Written only in `init`, then read-only.
    private let entries: UnsafeMutablePointer<UInt16>

    init(_ tables: PlacesTables) {
        let rows = PlacesTables.gridRows, columns = PlacesTables.gridColumns
        entries = .allocate(capacity: rows * columns)
        let latitudeSamples = (0..<rows).map {
            Self.samples(from: -90 + Double($0) * PlacesTables.cellDegrees, edges: WaterBody.latitudeEdges)
        }
        let longitudeSamples = (0..<columns).map {
            Self.samples(from: -180 + Double($0) * PlacesTables.cellDegrees, edges: WaterBody.longitudeEdges)
        }
        // A column's nautical zone, or -1 where a zone edge crosses it.
        let zones = longitudeSamples.map { samples in
            let zone = WaterBody.nauticalZoneIndex(longitude: samples[0])
            return samples.allSatisfy { WaterBody.nauticalZoneIndex(longitude: $0) == zone } ? zone : -1
        }
        for row in 0..<rows {
            let latitudes = latitudeSamples[row]
            for column in 0..<columns {
                let entry = tables.gridEntry(row: row, column: column)
                var value = Self.general
                switch entry >> 30 {
                case 0:
                    if zones[column] >= 0, let water = Self.water(latitudes: latitudes, longitudes: longitudeSamples[column]) {
                        value = Self.seaFlag | UInt16(water.ordinal * WaterBody.nauticalZones.count + zones[column])
                    }
                case 1 where entry & 0xFFFF < UInt32(Self.seaFlag):
                    value = UInt16(entry & 0xFFFF)
                default:
                    break
                }
                entries[row * columns + column] = value
            }
        }
    }

    deinit { entries.deallocate() }

    @inline(__always) func entry(row: Int, column: Int) -> UInt16 {
        entries[row * PlacesTables.gridColumns + column]
    }

    /// The index of a point's answer in `PlacesDatabase.seaAnswers`.
    static func seaAnswerIndex(latitude: Double, longitude: Double) -> Int {
        WaterBody.at(latitude: latitude, longitude: longitude).ordinal * WaterBody.nauticalZones.count
            + WaterBody.nauticalZoneIndex(longitude: longitude)
    }

    /// The water body of every point of a cell, or `nil` when two points of it are in different ones.
    private static func water(latitudes: [Double], longitudes: [Double]) -> WaterBody? {
        let water = WaterBody.at(latitude: latitudes[0], longitude: longitudes[0])
        guard latitudes.count > 1 || longitudes.count > 1 else { return water }
        for latitude in latitudes {
            for longitude in longitudes where WaterBody.at(latitude: latitude, longitude: longitude) != water {
                return nil
            }
        }
        return water
    }

    /// One coordinate from each stretch of `[start, start + 0.5)` on which no rule can change its answer:
    /// the start, each edge inside, and a point between each edge and the next (the rules compare with the
    /// edges' own literals, so a point exactly on an edge is a stretch of its own).
    static func samples(from start: Double, edges: [Double]) -> [Double] {
        let end = start + PlacesTables.cellDegrees
        let inside = edges.filter { $0 > start && $0 < end }.sorted()
        var samples = [start]
        var previous = start
        for edge in inside {
            samples.append((previous + edge) / 2)
            samples.append(edge)
            previous = edge
        }
        // The last stretch, unless the start stands for the whole cell.
        if previous != start || edges.contains(start) { samples.append((previous + end) / 2) }
        return samples
    }
}
