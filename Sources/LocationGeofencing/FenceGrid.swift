import Foundation

/// The cells of the index: at each level, latitude bands of 4^level / 512 degrees (level 0: ~217 m,
/// then 869 m, 3.5 km, 13.9 km…),
/// each band cut into as many equal longitude columns as keep a cell at least as wide as it is tall
/// at the band's poleward edge (so cells stay roughly square from the equator to the poles, and the
/// band round a pole is one cell). Columns wrap at ±180°, so the antimeridian is no seam.
///
/// A fence lives at the smallest level whose band height is at least twice its latitude extent, and
/// is registered in every cell its conservative latitude/longitude box touches (1 to 4 cells mostly).
enum FenceGrid {
    /// Up to 128° bands. A factor of 4 between levels, not 2: a query probes one cell per level
    /// and each probe is a cache miss among a million fences, so fewer levels is faster; fences sit
    /// in cells 2 to 8 times their size, still 1–4 cells each.
    static let levelCount = 9
    /// Expands every box by ~0.1 mm so rounding in the cell arithmetic never drops a cell.
    private static let boxSlack = 1e-9

    @inline(__always)
    static func bandHeight(_ level: Int) -> Double { Double(sign: .plus, exponent: 2 * level - 9, significand: 1) }

    static func bandCount(_ level: Int) -> Int { Int((180 / bandHeight(level)).rounded(.up)) }

    /// The level for a fence of this radius (metres).
    static func level(forRadius radius: Double) -> Int {
        let extent = 2 * degrees(radius / ChordBounds.smallestCurvatureRadius)
        var level = 0
        while level < levelCount - 1 && extent > bandHeight(level) / 2 { level += 1 }
        return level
    }

    /// A table would save the cosine, but at a million fences reading it is a cache miss per
    /// level, dearer than the cosine.
    @inline(__always)
    static func columnCount(level: Int, band: Int) -> Int {
        let h = bandHeight(level)
        let south = -90 + Double(band) * h
        let edge = min(90, max(abs(south), abs(south + h)))
        return max(1, Int((360 * cos(edge * (Double.pi / 180)) / h).rounded(.down)))
    }
    @inline(__always)
    static func cellID(level: Int, band: Int, column: Int) -> UInt64 {
        (1 << 63) | UInt64(level) << 56 | UInt64(band) << 28 | UInt64(column)
    }

    @inline(__always)
    private static func degrees(_ radians: Double) -> Double { radians * (180 / Double.pi) }

    /// A box that holds every point within geodesic distance `reach` of (latitude, longitude).
    ///
    /// Latitude changes at most 1/M per metre travelled (M ≥ ρ = a(1 − e²), the meridian's radius
    /// of curvature); longitude at most 1/p, p = N cos φ ≥ a cos φ, the radius of the parallel at the
    /// most poleward latitude the box reaches. A box that reaches a pole spans every longitude.
    struct Box {
        var south: Double
        var north: Double
        var west: Double
        /// Longitude span, degrees; 360 or more means every longitude.
        var span: Double

        init(latitude: Double, longitude: Double, reach: Double) {
            let dLat = FenceGrid.degrees(reach / ChordBounds.smallestCurvatureRadius) + FenceGrid.boxSlack
            south = max(-90, latitude - dLat)
            north = min(90, latitude + dLat)
            let poleward = max(abs(latitude - dLat), abs(latitude + dLat))
            if poleward >= 90 {
                west = -180
                span = 360
                return
            }
            let parallel = EarthPoint.equatorialRadius * cos(poleward * (Double.pi / 180))
            let ratio = reach / parallel
            let dLon = ratio >= Double.pi ? 360 : FenceGrid.degrees(ratio) + FenceGrid.boxSlack
            west = longitude - dLon
            span = min(360, 2 * dLon)
        }
    }

    /// How many cells `box` touches at `level` (an upper estimate, to choose between walking the
    /// cells and scanning the level's fences).
    static func cellEstimate(_ box: Box, level: Int) -> Double {
        let h = bandHeight(level)
        let bands = ((box.north - box.south) / h).rounded(.down) + 2
        let columns = min(360 / h, (box.span / h).rounded(.down) + 2)
        return bands * max(1, columns)
    }

    /// Calls `body` with every cell `box` touches at `level`, each once.
    @inline(__always)
    static func forEachCell(_ box: Box, level: Int, _ body: (UInt64) -> Void) {
        let h = bandHeight(level)
        let last = bandCount(level) - 1
        // Not negative: truncation is the floor.
        let firstBand = min(last, Int(max(0, (box.south + 90) / h)))
        let lastBand = min(last, Int(max(0, (box.north + 90) / h)))
        for band in firstBand...lastBand {
            let n = columnCount(level: level, band: band)
            let first: Int, count: Int
            if box.span >= 360 {
                first = 0
                count = n
            } else {
                let scale = Double(n) / 360
                // Shifted by 360° to stay positive (west ≥ −360°), so truncation is the floor.
                let a = Int((box.west + 540) * scale) - n
                let b = Int((box.west + box.span + 540) * scale) - n
                first = a
                count = min(n, b - a + 1)
            }
            for i in 0..<count {
                var column = (first + i) % n
                if column < 0 { column += n }
                body(cellID(level: level, band: band, column: column))
            }
        }
    }
}
