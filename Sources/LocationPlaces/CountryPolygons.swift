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
    func locate(latitude: Double, longitude: Double, boxes: LineBoxes) -> PolygonAnswer {
        let (row, column) = Self.gridCell(latitude: latitude, longitude: longitude)
        let entry = gridEntry(row: row, column: column)
        switch entry >> 30 {
        case 0:
            return .sea
        case 1:
            return .land(country: Int(entry & 0xFFFF))
        default:
            let cell = Int(entry & 0x3FFF_FFFF)
            // q in the cell's 1/65535 units, as its boundary points are stored.
            let scale = 65535 / Self.cellDegrees
            let qx = (longitude - (-180 + Double(column) * Self.cellDegrees)) * scale
            let qy = (latitude - (-90 + Double(row) * Self.cellDegrees)) * scale
            let subColumn = Swift.min(Self.subCells - 1, Int(qx * Double(Self.subCells) / 65535))
            let subRow = Swift.min(Self.subCells - 1, Int(qy * Double(Self.subCells) / 65535))
            let subCell = subRow * Self.subCells + subColumn
            if cellFarMask(cell) & (1 << subCell) != 0 {
                // No boundary near this sub-cell: q is where its centre is, and no coast is within reach.
                let firstPart = cellFirstPart(cell)
                for part in firstPart..<(firstPart + cellPartCount(cell)) where partInsideMask(part) & (1 << subCell) != 0 {
                    return .land(country: partCountry(part))
                }
                return .sea
            }
            if let country = containingCountry(cell: cell, subCell: subCell, qx: qx, qy: qy, boxes: boxes) {
                return .land(country: country)
            }
            return nearestCoast(row: row, column: column, latitude: latitude, longitude: longitude, boxes: boxes)
        }
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
    private func containingCountry(cell: Int, subCell: Int, qx: Double, qy: Double, boxes: LineBoxes) -> Int? {
        let subSize = 65535.0 / Double(Self.subCells)
        let cx = (Double(subCell % Self.subCells) + 0.5) * subSize, cy = (Double(subCell / Self.subCells) + 0.5) * subSize
        let dx = cx - qx, dy = cy - qy
        // The q→centre segment's box: a line whose box misses it cannot cross it.
        let lowX = Swift.min(qx, cx), highX = Swift.max(qx, cx)
        let lowY = Swift.min(qy, cy), highY = Swift.max(qy, cy)
        let firstPart = cellFirstPart(cell)
        for part in firstPart..<(firstPart + cellPartCount(cell)) {
            var odd = false
            let firstLine = partFirstLine(part)
            for line in firstLine..<(firstLine + partLineCount(part)) {
              for chunk in boxes.chunks(ofLine: line) {
                let box = boxes.box(chunk)
                if box.maxX < lowX || box.minX > highX || box.maxY < lowY || box.minY > highY { continue }
                let points = boxes.points(ofChunk: chunk, line: line)
                let first = points.lowerBound
                var (ax, ay) = point(first)
                // Side of the q→centre line of the previous point; a point exactly on it counts as "below",
                // consistently for both edges that share it, so touching vertices cancel out.
                var aSide = dx * (Double(ay) - qy) - dy * (Double(ax) - qx) > 0
                for index in (first + 1)..<points.upperBound {
                    let (bx, by) = point(index)
                    let bSide = dx * (Double(by) - qy) - dy * (Double(bx) - qx) > 0
                    if aSide != bSide {
                        let ex = Double(bx) - Double(ax), ey = Double(by) - Double(ay)
                        let qSide = ex * (qy - Double(ay)) - ey * (qx - Double(ax)) > 0
                        let cSide = ex * (cy - Double(ay)) - ey * (cx - Double(ax)) > 0
                        if qSide != cSide { odd.toggle() }
                    }
                    (ax, ay, aSide) = (bx, by, bSide)
                }
              }
            }
            let referenceInside = partInsideMask(part) & (1 << subCell) != 0
            if odd != referenceInside { return partCountry(part) }
        }
        return nil
    }

    /// The territorial search: the nearest boundary point in the mixed cells around `q` (rows ±1, columns
    /// ±k as the generator computes them, wrapping across ±180°), by local equirectangular distance.
    private func nearestCoast(
        row: Int, column: Int, latitude: Double, longitude: Double, boxes: LineBoxes
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
            let reach = Swift.min(Self.columnReach(row: neighbourRow), Self.gridColumns / 2)
            let south = -90 + Double(neighbourRow) * Self.cellDegrees
            for step in 0..<(2 * reach + 1) {
                // 0, -1, +1, -2, +2, …; with the whole row (reach 360) the last step, +360, is -360's column.
                let offset = step & 1 == 1 ? -(step + 1) / 2 : step / 2
                if reach == Self.gridColumns / 2, offset == reach { continue }
                let unwrapped = column + offset
                let wrapped = (unwrapped % Self.gridColumns + Self.gridColumns) % Self.gridColumns
                let entry = gridEntry(row: neighbourRow, column: wrapped)
                guard entry >> 30 == 2 else { continue }
                let cell = Int(entry & 0x3FFF_FFFF)
                let partCount = cellPartCount(cell)
                guard partCount > 0 else { continue }
                // The neighbour's west edge, shifted by ±360° across the antimeridian so dx stays small.
                let west = -180 + Double(unwrapped) * Self.cellDegrees
                let originX = (west - longitude) * xScale
                let originY = (south - latitude) * metresPerDegree
                // Skip the cell when its box is farther than the best distance so far.
                let cellWidth = Self.cellDegrees * xScale, cellHeight = Self.cellDegrees * metresPerDegree
                let gapX = Swift.max(0, Swift.max(originX, -(originX + cellWidth)))
                let gapY = Swift.max(0, Swift.max(originY, -(originY + cellHeight)))
                guard gapX * gapX + gapY * gapY < bestSquared else { continue }
                let unitX = cellWidth / 65535, unitY = cellHeight / 65535
                let firstPart = cellFirstPart(cell)
                for part in firstPart..<(firstPart + partCount) {
                    let firstLine = partFirstLine(part)
                    for line in firstLine..<(firstLine + partLineCount(part)) {
                      for chunk in boxes.chunks(ofLine: line) {
                        // Skip the chunk when its box is farther than the best coast so far.
                        let box = boxes.box(chunk)
                        let chunkGapX = Swift.max(0, Swift.max(originX + box.minX * unitX, -(originX + box.maxX * unitX)))
                        let chunkGapY = Swift.max(0, Swift.max(originY + box.minY * unitY, -(originY + box.maxY * unitY)))
                        guard chunkGapX * chunkGapX + chunkGapY * chunkGapY < bestSquared else { continue }
                        let points = boxes.points(ofChunk: chunk, line: line)
                        let first = points.lowerBound
                        var a = point(first)
                        var ax = originX + Double(a.x) * unitX, ay = originY + Double(a.y) * unitY
                        for index in (first + 1)..<points.upperBound {
                            let b = point(index)
                            let bx = originX + Double(b.x) * unitX, by = originY + Double(b.y) * unitY
                            let squared = Self.squaredDistanceToOrigin(ax, ay, bx, by)
                            if squared < bestSquared {
                                bestSquared = squared
                                bestCountry = partCountry(part)
                            }
                            (a, ax, ay) = (b, bx, by)
                        }
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
