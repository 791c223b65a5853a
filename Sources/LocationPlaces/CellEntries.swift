/// GRID's answer per 0.5° cell in two bytes, built at open (518 KB instead of GRID's 1 MB, which random
/// points miss the caches on): a whole-land cell's country, an open-sea cell's finished answer (water body
/// and nautical zone, when the cell has one of each throughout), a mixed cell's index, or "ask GRID". Open
/// sea and whole-land cells are ~85% of the Earth, and this answers them with one load and no geometry.
final class CellEntries: @unchecked Sendable {
    enum Kind {
        /// Wholly inside one country's polygons; `noPlaceInReach`: no place of that country lies within
        /// `PlacesDatabase.localityRange` of any point of the cell (GRID's bit 16), so there is nothing to search.
        case land(country: Int, noPlaceInReach: Bool)
        /// Open sea: the index of the answer in `PlacesDatabase.seaAnswers`.
        case sea(answer: Int)
        /// A mixed cell (index into `CELL`): the polygons decide.
        case mixed(cell: Int)
        /// A sea cell that two water bodies or zones share, or an index too large for the encoding: ask GRID.
        case general
    }

    // Encoding: below `landFlag` a mixed cell's index; `landFlag | noPlaceInReach | country`;
    // `seaFlag | answer`; `general`.
    static let landFlag: UInt16 = 0xC000
    static let seaFlag: UInt16 = 0xE000
    static let general: UInt16 = 0xFFFF
    private static let payload: UInt16 = 0x1FFF
    private static let noPlaceInReach: UInt16 = 0x1000

    /// Written only in `init`, then read-only.
    private let entries: UnsafeMutablePointer<UInt16>
    /// Per grid row, `PlacesTables.columnReach`, at most half the columns: the territorial search reads three
    /// rows a point off a coast, and their three cosines were 2 % of a batch near places.
    private let columnReaches: UnsafeMutablePointer<UInt16>

    init(_ tables: PlacesTables) {
        let rows = PlacesTables.gridRows, columns = PlacesTables.gridColumns
        entries = .allocate(capacity: rows * columns)
        columnReaches = .allocate(capacity: rows)
        for row in 0..<rows {
            columnReaches[row] = UInt16(Swift.min(PlacesTables.columnReach(row: row), columns / 2))
        }
        var memo = WaterMemo()
        let latitudeSamples = (0..<rows).map {
            memo.latitudes(Self.samples(from: -90 + Double($0) * PlacesTables.cellDegrees, edges: WaterBody.latitudeEdges))
        }
        let longitudeSamples = (0..<columns).map {
            memo.longitudes(Self.samples(from: -180 + Double($0) * PlacesTables.cellDegrees, edges: WaterBody.longitudeEdges))
        }
        // A column's nautical zone, or -1 where a zone edge crosses it.
        let zones = longitudeSamples.map { samples in
            let zone = WaterBody.nauticalZoneIndex(longitude: samples[0].value)
            return samples.allSatisfy { WaterBody.nauticalZoneIndex(longitude: $0.value) == zone } ? zone : -1
        }
        for row in 0..<rows {
            let latitudes = latitudeSamples[row]
            for column in 0..<columns {
                let entry = tables.gridEntry(row: row, column: column)
                var value = Self.general
                switch entry >> 30 {
                case 0:
                    if zones[column] >= 0, let water = memo.water(latitudes: latitudes, longitudes: longitudeSamples[column]) {
                        value = Self.seaFlag | UInt16(water * WaterBody.nauticalZones.count + zones[column])
                    }
                case 1 where entry & 0xFFFF < UInt32(Self.noPlaceInReach):
                    value = Self.landFlag | UInt16(entry & 0xFFFF)
                    if entry & PlacesTables.noPlaceInReachBit != 0 { value |= Self.noPlaceInReach }
                case 2 where entry & 0x3FFF_FFFF < UInt32(Self.landFlag):
                    value = UInt16(entry & 0x3FFF_FFFF)
                default:
                    break
                }
                entries[row * columns + column] = value
            }
        }
    }

    deinit {
        entries.deallocate()
        columnReaches.deallocate()
    }

    /// `min(PlacesTables.columnReach(row: row), PlacesTables.gridColumns / 2)`.
    @inline(__always) func columnReach(row: Int) -> Int { Int(columnReaches[row]) }

    @inline(__always) private func entry(row: Int, column: Int) -> UInt16 {
        entries[row * PlacesTables.gridColumns + column]
    }

    @inline(__always) func kind(row: Int, column: Int) -> Kind {
        let entry = self.entry(row: row, column: column)
        if entry < Self.landFlag { return .mixed(cell: Int(entry)) }
        if entry < Self.seaFlag {
            return .land(country: Int(entry & (Self.noPlaceInReach - 1)), noPlaceInReach: entry & Self.noPlaceInReach != 0)
        }
        return entry == Self.general ? .general : .sea(answer: Int(entry & Self.payload))
    }

    /// The index in `PlacesDatabase.seaAnswers` of the answer for `water` at `longitude`.
    static func seaAnswerIndex(water: WaterBody, longitude: Double) -> Int {
        water.ordinal * WaterBody.nauticalZones.count + WaterBody.nauticalZoneIndex(longitude: longitude)
    }

    /// The index of a point's answer in `PlacesDatabase.seaAnswers`.
    static func seaAnswerIndex(latitude: Double, longitude: Double) -> Int {
        seaAnswerIndex(water: WaterBody.at(latitude: latitude, longitude: longitude), longitude: longitude)
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

/// The water rules memoised by stretch. Every coordinate lies on one edge of `WaterBody`'s lists or in
/// the open interval between two, and the rules answer every point of a pair of such stretches alike, so
/// each pair is evaluated once (a few thousand evaluations instead of one or more per sea cell).
private struct WaterMemo {
    struct Sample {
        let value: Double
        /// `2k + 1` on edge `k`; `2k` between edges `k - 1` and `k`.
        let stretch: Int
    }

    private let latitudeEdges = WaterBody.latitudeEdges.sorted()
    private let longitudeEdges = WaterBody.longitudeEdges.sorted()
    /// The water body's ordinal per pair of stretches, -1 until evaluated.
    private var ordinals: [Int8]

    init() {
        ordinals = Array(repeating: -1, count: (2 * latitudeEdges.count + 1) * (2 * longitudeEdges.count + 1))
    }

    func latitudes(_ values: [Double]) -> [Sample] { values.map { Sample(value: $0, stretch: Self.stretch($0, latitudeEdges)) } }
    func longitudes(_ values: [Double]) -> [Sample] { values.map { Sample(value: $0, stretch: Self.stretch($0, longitudeEdges)) } }

    /// The ordinal of the water body of every sample pair, or `nil` when two pairs differ.
    mutating func water(latitudes: [Sample], longitudes: [Sample]) -> Int? {
        if latitudes.count == 1, longitudes.count == 1 { return water(latitudes[0], longitudes[0]) }
        var found: Int?
        for latitude in latitudes {
            for longitude in longitudes {
                let ordinal = water(latitude, longitude)
                if let found, found != ordinal { return nil }
                found = ordinal
            }
        }
        return found
    }

    private mutating func water(_ latitude: Sample, _ longitude: Sample) -> Int {
        let key = latitude.stretch * (2 * longitudeEdges.count + 1) + longitude.stretch
        if ordinals[key] < 0 {
            ordinals[key] = Int8(WaterBody.at(latitude: latitude.value, longitude: longitude.value).ordinal)
        }
        return Int(ordinals[key])
    }

    private static func stretch(_ value: Double, _ edges: [Double]) -> Int {
        var low = 0, high = edges.count
        while low < high {
            let middle = (low + high) / 2
            if edges[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < edges.count && edges[low] == value ? 2 * low + 1 : 2 * low
    }
}
