#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a point lies with respect to the country polygons.
enum PolygonAnswer: Equatable {
    /// Inside country `country`'s polygons.
    case land(country: Int)
    /// Outside every polygon but within `PlacesGeometry.coastTolerance` of `country`'s boundary: the
    /// polygons' own resolution (1:10m coasts sit up to a few kilometres off real towns), so land.
    case nearCoast(country: Int)
    /// In `country`'s territorial sea (12 nautical miles of its boundary).
    case territorialSea(country: Int)
    /// At sea, beyond every territorial sea.
    case sea
}

enum PlacesGeometry {
    /// 12 nautical miles, the territorial sea.
    static let territorialSea = 22_224.0
    /// Outside every polygon but this close to a boundary counts as land (the 1:10m coastline's error).
    static let coastTolerance = 2_000.0
    /// Mean Earth radius (IUGG), metres.
    static let earthRadius = 6_371_008.8
    static let metresPerDegree = earthRadius * Double.pi / 180
    /// The generator's metres per degree for the territorial search reach (scripts/places/build-places-db.py);
    /// the same value here makes the reader search exactly the cells the generator marked.
    static let reachMetresPerDegree = 111_320.0
}

extension PlacesTables {
    /// The country polygon (or territorial sea) holding the point. `latitude` in [-90, 90], `longitude` in
    /// [-180, 180).
    @inline(__always)
    func locate(latitude: Double, longitude: Double, entries: CellEntries, geometry: CellGeometry) -> PolygonAnswer {
        let (row, column) = Self.gridCell(latitude: latitude, longitude: longitude)
        let entry = gridEntry(row: row, column: column)
        switch entry >> 30 {
        case 0: return .sea
        case 1: return .land(country: Int(entry & 0xFFFF))
        default:
            return locate(latitude: latitude, longitude: longitude, inMixedCell: Int(entry & 0x3FFF_FFFF),
                          row: row, column: column, entries: entries, geometry: geometry)
        }
    }

    /// `locate` in mixed cell `cell` (GRID's index), at `row` and `column`.
    func locate(
        latitude: Double, longitude: Double, inMixedCell cell: Int, row: Int, column: Int, entries: CellEntries,
        geometry: CellGeometry
    ) -> PolygonAnswer {
        // q in the cell's 1/65535 units, as its boundary points are stored.
        let scale = 65535 / Self.cellDegrees
        let qx = (longitude - (-180 + Double(column) * Self.cellDegrees)) * scale
        let qy = (latitude - (-90 + Double(row) * Self.cellDegrees)) * scale
        let subColumn = Swift.min(Self.subCells - 1, Int(qx * Double(Self.subCells) / 65535))
        let subRow = Swift.min(Self.subCells - 1, Int(qy * Double(Self.subCells) / 65535))
        let subCell = subRow * Self.subCells + subColumn
        if geometry.farMask(cell) & (1 << subCell) != 0 {
            // No boundary near this sub-cell: q is where its centre is, and no coast is within reach.
            for index in 0..<geometry.partCount(cell) {
                let part = geometry.part(index, of: cell)
                if part.insideMask & (1 << subCell) != 0 { return .land(country: part.country) }
            }
            return .sea
        }
        // Static, handed `grid` alone: a call of an instance method from here, inlined into a batch's loop,
        // took a copy of the whole table struct (280 bytes and a retain) on every point in polygon.
        if let country = Self.containingCountry(cell: cell, subCell: subCell, qx: qx, qy: qy, geometry: geometry) {
            return .land(country: country)
        }
        return Self.nearestCoast(grid: grid, row: row, column: column, latitude: latitude, longitude: longitude,
                                 entries: entries, geometry: geometry)
    }

    /// The grid cell holding a point (`latitude` in [-90, 90], `longitude` in [-180, 180)).
    @inline(__always)
    static func gridCell(latitude: Double, longitude: Double) -> (row: Int, column: Int) {
        (Swift.min(Int((latitude + 90) * 2), gridRows - 1), Swift.min(Int((longitude + 180) * 2), gridColumns - 1))
    }

    /// Point in polygon inside a mixed cell: the parity of the crossings of the segment from `q` to the
    /// centre of its sub-cell with a country's boundary flips whether `q` shares that centre's side (spec:
    /// "Grid semantics"); the segment is short, so most boundary chunks' boxes miss it. Coordinates are in
    /// units of the cell's 1/65535 (`qx`, `qy` too), so the boundary points are used as stored, exactly.
    private static func containingCountry(
        cell: Int, subCell: Int, qx: Double, qy: Double, geometry: CellGeometry
    ) -> Int? {
        let subSize = 65535.0 / Double(Self.subCells)
        let cx = (Double(subCell % Self.subCells) + 0.5) * subSize, cy = (Double(subCell / Self.subCells) + 0.5) * subSize
        let dx = cx - qx, dy = cy - qy
        // The q→centre segment's box: a chunk whose box misses it cannot cross it.
        let lowX = Swift.min(qx, cx), highX = Swift.max(qx, cx)
        let lowY = Swift.min(qy, cy), highY = Swift.max(qy, cy)
        for index in 0..<geometry.partCount(cell) {
            let part = geometry.part(index, of: cell)
            var odd = false
            Self.forEachChunk(part.chunks) { minX, minY, maxX, maxY, points, count in
                if maxX < lowX || minX > highX || maxY < lowY || minY > highY { return }
                var ax = Double(points[0]), ay = Double(points[1])
                // Side of the q→centre line of the previous point; a point exactly on it counts as "below",
                // consistently for both edges that share it, so touching vertices cancel out.
                var aSide = dx * (ay - qy) - dy * (ax - qx) > 0
                for point in 1..<count {
                    let bx = Double(points[2 * point]), by = Double(points[2 * point + 1])
                    let bSide = dx * (by - qy) - dy * (bx - qx) > 0
                    if aSide != bSide {
                        let ex = bx - ax, ey = by - ay
                        let qSide = ex * (qy - ay) - ey * (qx - ax) > 0
                        let cSide = ex * (cy - ay) - ey * (cx - ax) > 0
                        if qSide != cSide { odd.toggle() }
                    }
                    (ax, ay, aSide) = (bx, by, bSide)
                }
            }
            let referenceInside = part.insideMask & (1 << subCell) != 0
            if odd != referenceInside { return part.country }
        }
        return nil
    }

    /// Calls `body` with each chunk of a part: its box, its points (`x, y` pairs) and their count.
    @inline(__always)
    private static func forEachChunk(
        _ chunks: UnsafeBufferPointer<UInt16>,
        _ body: (_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double, _ points: UnsafePointer<UInt16>, _ count: Int) -> Void
    ) {
        guard let base = chunks.baseAddress else { return }
        var at = 0
        while at < chunks.count {
            let count = Int(base[at + 4])
            body(Double(base[at]), Double(base[at + 1]), Double(base[at + 2]), Double(base[at + 3]),
                 base + at + CellGeometry.chunkHeaderWords, count)
            at += CellGeometry.chunkHeaderWords + 2 * count
        }
    }

    /// The territorial search: the nearest boundary point in the mixed cells around `q` (rows ±1, columns
    /// ±k as the generator computes them, wrapping across ±180°), by local equirectangular distance. `grid`:
    /// the `GRID` section.
    private static func nearestCoast(
        grid: UnsafeRawPointer, row: Int, column: Int, latitude: Double, longitude: Double, entries: CellEntries,
        geometry: CellGeometry
    ) -> PolygonAnswer {
        let limit = PlacesGeometry.territorialSea
        let metresPerDegree = PlacesGeometry.metresPerDegree
        let xScale = cos(latitude * .pi / 180) * metresPerDegree
        var bestSquared = limit * limit
        var bestCountry = -1
        // Own row first and columns outwards from q's, so the nearest coast is usually met early and the
        // box test below skips most farther cells.
        for rowStep in 0..<3 {
            let neighbourRow = row + (rowStep == 0 ? 0 : rowStep == 1 ? -1 : 1)
            guard neighbourRow >= 0, neighbourRow < Self.gridRows else { continue }
            let reach = entries.columnReach(row: neighbourRow)
            let south = -90 + Double(neighbourRow) * Self.cellDegrees
            for step in 0..<(2 * reach + 1) {
                // 0, -1, +1, -2, +2, …; with the whole row (reach 360) the last step, +360, is -360's column.
                let offset = step & 1 == 1 ? -(step + 1) / 2 : step / 2
                if reach == Self.gridColumns / 2, offset == reach { continue }
                let unwrapped = column + offset
                let wrapped = (unwrapped % Self.gridColumns + Self.gridColumns) % Self.gridColumns
                // The neighbour's west edge, shifted by ±360° across the antimeridian so dx stays small.
                let west = -180 + Double(unwrapped) * Self.cellDegrees
                let originX = (west - longitude) * xScale
                let originY = (south - latitude) * metresPerDegree
                // Skip the cell when its box is farther than the best distance so far (before reading it).
                let cellWidth = Self.cellDegrees * xScale, cellHeight = Self.cellDegrees * metresPerDegree
                let gapX = Swift.max(0, Swift.max(originX, -(originX + cellWidth)))
                let gapY = Swift.max(0, Swift.max(originY, -(originY + cellHeight)))
                guard gapX * gapX + gapY * gapY < bestSquared else { continue }
                let cell: Int
                switch entries.kind(row: neighbourRow, column: wrapped) {
                case .mixed(let mixed): cell = mixed
                case .land, .sea: continue
                case .general:
                    let entry = gridEntry(grid, row: neighbourRow, column: wrapped)
                    guard entry >> 30 == 2 else { continue }
                    cell = Int(entry & 0x3FFF_FFFF)
                }
                let partCount = geometry.partCount(cell)
                guard partCount > 0 else { continue }
                let unitX = cellWidth / 65535, unitY = cellHeight / 65535
                for index in 0..<partCount {
                    let part = geometry.part(index, of: cell)
                    Self.forEachChunk(part.chunks) { minX, minY, maxX, maxY, points, count in
                        // Skip the chunk when its box is farther than the best coast so far.
                        let chunkGapX = Swift.max(0, Swift.max(originX + minX * unitX, -(originX + maxX * unitX)))
                        let chunkGapY = Swift.max(0, Swift.max(originY + minY * unitY, -(originY + maxY * unitY)))
                        guard chunkGapX * chunkGapX + chunkGapY * chunkGapY < bestSquared else { return }
                        var ax = originX + Double(points[0]) * unitX, ay = originY + Double(points[1]) * unitY
                        for point in 1..<count {
                            let bx = originX + Double(points[2 * point]) * unitX
                            let by = originY + Double(points[2 * point + 1]) * unitY
                            let squared = Self.squaredDistanceToOrigin(ax, ay, bx, by)
                            if squared < bestSquared {
                                bestSquared = squared
                                bestCountry = part.country
                            }
                            (ax, ay) = (bx, by)
                        }
                    }
                }
            }
        }
        guard bestCountry >= 0 else { return .sea }
        let tolerance = PlacesGeometry.coastTolerance
        return bestSquared <= tolerance * tolerance ? .nearCoast(country: bestCountry) : .territorialSea(country: bestCountry)
    }

    /// Squared distance from (0, 0) to the segment a–b.
    @inline(__always)
    private static func squaredDistanceToOrigin(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        let ex = bx - ax, ey = by - ay
        let length = ex * ex + ey * ey
        var t = length > 0 ? -(ax * ex + ay * ey) / length : 0
        t = Swift.min(1, Swift.max(0, t))
        let px = ax + t * ex, py = ay + t * ey
        return px * px + py * py
    }

    /// Sub-cells per side of a mixed cell (the masks in `CELL` and `PART`).
    static let subCells = 4

    /// Columns either side of a cell in `row` that can hold a point within the territorial sea (the
    /// generator's `column_reach`).
    static func columnReach(row: Int) -> Int {
        let poleward = Swift.max(abs(-90 + Double(row) * cellDegrees), abs(-90 + Double(row + 1) * cellDegrees))
        let width = cellDegrees * PlacesGeometry.reachMetresPerDegree * cos(Swift.min(poleward, 90) * .pi / 180)
        guard width > 1e-9 else { return gridColumns }
        return Swift.min(gridColumns, Int((PlacesGeometry.territorialSea / width).rounded(.up)))
    }
}
