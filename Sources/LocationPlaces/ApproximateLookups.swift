#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point's country and municipality as indexes: what two points must share to be in the same city.
/// Made without building a string, for code that sizes and keys regions around a fix (approximate
/// location) and calls it on every fix.
public struct PlaceKey: Sendable, Hashable {
    /// Index of the country whose polygon holds the point (`PlacesDatabase.isoCountryCode(country:)`): the
    /// border itself, so a Réunion point has France's index here although its placemark says RE.
    public var country: Int
    /// Index of the point's municipality (`PlacesDatabase.placeName(_:)`), or `nil` where no place lies
    /// within `PlacesDatabase.localityRange` (deserts, ice, tundra) or in the territorial sea.
    public var locality: Int?

    public init(country: Int, locality: Int?) {
        self.country = country
        self.locality = locality
    }
}

extension PlacesDatabase {
    /// The country and municipality of a point: the locality `reverseGeocode` names, as indexes. `nil` at
    /// sea beyond every territorial sea, and for coordinates that are not finite or out of range. No
    /// allocation: the cost of `reverseLookup` (a grid load, the polygons in border cells, one k-d search).
    public func localityKey(latitude: Double, longitude: Double) -> PlaceKey? {
        guard let hit = reverseLookup(latitude: latitude, longitude: longitude), let country = hit.polygonCountry
        else { return nil }
        return PlaceKey(country: country, locality: hit.locality)
    }

    /// The ISO 3166-1 alpha-2 code of country `index` (a `PlaceKey.country`); `nil` when out of range.
    public func isoCountryCode(country index: Int) -> String? {
        index >= 0 && index < tables.countryCount ? names.countryCodes[index] : nil
    }

    /// Place `index`'s GeoNames name (a `PlaceKey.locality`, `ReverseHit.place`); `nil` when out of range.
    public func placeName(_ index: Int) -> String? {
        index >= 0 && index < tables.placeCount ? tables.string(tables.placeNameRef(index)) : nil
    }

    /// Place `index`'s coordinate (degrees) and GeoNames population; `nil` when out of range.
    public func placeCoordinate(_ index: Int) -> (latitude: Double, longitude: Double, population: Int)? {
        guard index >= 0 && index < tables.placeCount else { return nil }
        let (latitude, longitude) = tables.coordinate(ofPlace: index)
        return (latitude, longitude, Int(tables.placePopulation(index)))
    }

    /// The sum of the GeoNames populations of the places of any country within `radius` metres of the
    /// point (great-circle distance): a measure of how built-up the surroundings are. 0 for coordinates that
    /// are not finite or out of range, and for a radius that is not positive.
    ///
    /// Each 0.5° grid cell the circle's bounding box covers names the countries whose polygons reach it (one
    /// for a whole-country cell, the parts of a border cell); each of those countries' k-d trees is searched
    /// for the places within the radius. A place lies in its country's polygon, so every place within the
    /// radius is found, except a place outside every polygon more than 12 nautical miles offshore (an islet
    /// the 1:10m polygons leave out). Cost: a few cells, and a k-d descent per country that grows with the
    /// places found (~0.6 µs for 10 km near populated places).
    public func populationNear(latitude: Double, longitude: Double, radius: Double) -> Int {
        guard let longitude = Self.normalisedLongitude(latitude: latitude, longitude: longitude),
              radius > 0, radius.isFinite || radius == .infinity
        else { return 0 }
        let metres = Swift.min(radius, Double.pi * PlacesGeometry.earthRadius)
        let chord = Float(chordLength(metres: metres))
        var search = PopulationSum(
            target: SIMD4(PlacesTables.unitVector(latitude: latitude, longitude: longitude), 0),
            chordSquared: chord * chord)
        forEachCountry(near: latitude, longitude, metres: metres) { country in
            let start = tables.countryPlaceStart(country)
            search.visit(placeVectors, tables, start, start + tables.countryPlaceCount(country))
        }
        return search.total
    }

    /// Calls `body` once for each country whose polygons reach a grid cell of the bounding box of the circle
    /// of `metres` around the point.
    private func forEachCountry(near latitude: Double, _ longitude: Double, metres: Double, _ body: (Int) -> Void) {
        let degrees = metres / PlacesGeometry.earthRadius * 180 / .pi
        let cell = PlacesTables.cellDegrees
        let rows = PlacesTables.gridRows, columns = PlacesTables.gridColumns
        let firstRow = Swift.max(0, Int(((latitude - degrees + 90) / cell).rounded(.down)))
        let lastRow = Swift.min(rows - 1, Int(((latitude + degrees + 90) / cell).rounded(.down)))
        // Columns: all of them when the box reaches a pole or is wider than the Earth.
        let poleward = Swift.max(abs(latitude - degrees), abs(latitude + degrees))
        var firstColumn = 0, columnCount = columns
        if poleward < 89.9 {
            let span = degrees / cos(poleward * .pi / 180)
            if 2 * span < 360 - 2 * cell {
                firstColumn = Int(((longitude - span + 180) / cell).rounded(.down))
                columnCount = Int(((longitude + span + 180) / cell).rounded(.down)) - firstColumn + 1
            }
        }
        // Countries seen, in a fixed buffer: a circle of a few tens of km meets a handful.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { seen in
            var seenCount = 0
            func visit(_ country: Int) {
                for index in 0..<seenCount where seen[index] == country { return }
                if seenCount < seen.count {
                    seen[seenCount] = country
                    seenCount += 1
                }
                body(country)
            }
            for row in firstRow...lastRow {
                for step in 0..<columnCount {
                    let column = ((firstColumn + step) % columns + columns) % columns
                    let entry = tables.gridEntry(row: row, column: column)
                    switch entry >> 30 {
                    case 1:
                        visit(Int(entry & 0xFFFF))
                    case 2:
                        let mixed = Int(entry & 0x3FFF_FFFF)
                        let firstPart = tables.cellFirstPart(mixed)
                        for part in firstPart..<(firstPart + tables.cellPartCount(mixed)) {
                            visit(tables.partCountry(part))
                        }
                    default:
                        break
                    }
                }
            }
        }
    }
}

/// The sum of populations of a k-d range's places within a chord of a target (both sides of a split are
/// searched where the ball crosses it).
private struct PopulationSum {
    static let leafSize = 16
    let target: SIMD4<Float>
    let chordSquared: Float
    var total = 0

    init(target: SIMD4<Float>, chordSquared: Float) {
        self.target = target
        self.chordSquared = chordSquared
    }

    mutating func visit(_ vectors: PlaceVectors, _ tables: PlacesTables, _ lo: Int, _ hi: Int) {
        if hi - lo <= Self.leafSize {
            for index in lo..<hi where Self.squaredDistance(target, vectors[index]) <= chordSquared {
                total += Int(tables.placePopulation(index))
            }
            return
        }
        let mid = lo + (hi - lo) / 2
        let node = vectors[mid]
        if Self.squaredDistance(target, node) <= chordSquared { total += Int(tables.placePopulation(mid)) }
        let delta = target - node
        let along: Float
        switch node.w {
        case 0: along = delta.x
        case 1: along = delta.y
        default: along = delta.z
        }
        let crosses = along * along <= chordSquared
        if along <= 0 || crosses { visit(vectors, tables, lo, mid) }
        if along >= 0 || crosses { visit(vectors, tables, mid + 1, hi) }
    }

    @inline(__always)
    static func squaredDistance(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Float {
        var delta = a - b
        delta.w = 0
        return (delta * delta).sum()
    }
}
