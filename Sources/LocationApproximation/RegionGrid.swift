import Foundation

/// A latitude/longitude box on the ground. `west` may lie below −180° (a cell across the
/// antimeridian); `east - west` is at most 360°.
struct CellBounds: Equatable, Sendable {
    var south: Double
    var north: Double
    var west: Double
    var east: Double
    /// A polar cap: the whole ring of longitudes round a pole, drawn from `south` to `north`.
    var isCap: Bool

    var height: Double { north - south }
    var width: Double { east - west }

    /// The sub-box `row`, `column` of a `count` × `count` split.
    func part(row: Int, column: Int, of count: Int) -> CellBounds {
        let rowHeight = height / Double(count), columnWidth = width / Double(count)
        return CellBounds(south: south + Double(row) * rowHeight, north: south + Double(row + 1) * rowHeight,
                          west: west + Double(column) * columnWidth, east: west + Double(column + 1) * columnWidth,
                          isCap: isCap)
    }

    /// The point at fractions `u` (south to north) and `v` (west to east) of the box.
    func point(u: Double, v: Double) -> (latitude: Double, longitude: Double) {
        (south + u * height, RegionGrid.normalised(west + v * width))
    }

    /// Which of the `count` × `count` parts holds a position of this box.
    func partIndex(latitude: Double, longitude: Double, of count: Int) -> (row: Int, column: Int) {
        guard count > 1 else { return (0, 0) }
        var east = (longitude - west).truncatingRemainder(dividingBy: 360)
        if east < 0 { east += 360 }
        let row = Int(((latitude - south) / height * Double(count)).rounded(.down))
        let column = Int((east / width * Double(count)).rounded(.down))
        return (min(count - 1, max(0, row)), min(count - 1, max(0, column)))
    }
}

/// The coarse cells of one device's layout: bands of latitude `rowDegrees` high, shifted north by a
/// seeded fraction of a band, each cut into columns at most `cellMetres` wide along its
/// equatorward edge (so cells stay about square and never wider than that) and shifted east by a
/// seeded fraction of a column of its own. The two bands that touch the poles are single cells
/// (caps). Columns per band and their shifts are worked out once, so finding a cell costs a few
/// multiplications.
struct RegionGrid: Sendable {
    /// Side of a coarse cell on the ground: with the farthest corner and the largest hysteresis margin
    /// (0.15 of a side) a whole cell fits within a 20 km radius.
    static let cellMetres = 11_000.0
    /// Metres in a degree of latitude on the mean sphere (R = 6,371,008.8 m).
    static let metresPerDegree = 111_194.93
    static let rowDegrees = cellMetres / metresPerDegree

    let latitudeShift: Double
    private let columns: [Int]
    private let columnShifts: [Double]

    init(hash: SipHash) {
        latitudeShift = hash.unit([0x6c61_7469_7475_6465])
        let rowCount = Int((180 / Self.rowDegrees + latitudeShift).rounded(.down)) + 1
        var columns: [Int] = []
        var shifts: [Double] = []
        columns.reserveCapacity(rowCount)
        shifts.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            let south = max(-90, -90 + (Double(row) - latitudeShift) * Self.rowDegrees)
            let north = min(90, -90 + (Double(row) + 1 - latitudeShift) * Self.rowDegrees)
            if row == 0 || row == rowCount - 1 {
                columns.append(1)
            } else {
                let equatorward = south <= 0 && north >= 0 ? 0 : min(abs(south), abs(north))
                columns.append(max(1, Int((360 * cos(equatorward * .pi / 180) / Self.rowDegrees).rounded(.up))))
            }
            shifts.append(hash.unit([0x636f_6c75_6d6e, UInt64(row)]))
        }
        self.columns = columns
        self.columnShifts = shifts
    }

    var rowCount: Int { columns.count }

    /// The coarse cell of a valid position: its row, column and bounds.
    func cell(latitude: Double, longitude: Double) -> (row: Int, column: Int, bounds: CellBounds) {
        let row = min(rowCount - 1, max(0, Int(((latitude + 90) / Self.rowDegrees + latitudeShift).rounded(.down))))
        let count = columns[row]
        let width = 360 / Double(count)
        let shifted = Int(((longitude + 180) / width + columnShifts[row]).rounded(.down))
        let column = ((shifted % count) + count) % count
        return (row, column, bounds(row: row, column: column))
    }

    func bounds(row: Int, column: Int) -> CellBounds {
        let count = columns[row]
        let width = 360 / Double(count)
        let west = -180 + (Double(column) - columnShifts[row]) * width
        return CellBounds(
            south: max(-90, -90 + (Double(row) - latitudeShift) * Self.rowDegrees),
            north: min(90, -90 + (Double(row) + 1 - latitudeShift) * Self.rowDegrees),
            west: west, east: west + width, isCap: count == 1)
    }

    /// A longitude brought into [-180, 180).
    static func normalised(_ longitude: Double) -> Double {
        var value = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value - 180
    }
}
