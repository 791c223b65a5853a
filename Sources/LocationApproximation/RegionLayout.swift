import Foundation
import LocationCore
import LocationPolicy

/// One region's identity: its cell (coarse cell, split and part) and what the places database says
/// there. Equal keys are one region.
struct RegionKey: Hashable, Sendable {
    var row: Int32
    var column: Int32
    var split: UInt8
    var partRow: UInt8
    var partColumn: UInt8
    var locality: LocalityKey
}

/// What is worked out once per region and reused for every fix inside it.
struct RegionEntry: Sendable {
    var region: ApproximateRegion
    var locality: LocalityKey
    /// Metres: how deep into a neighbouring region of the same country the device must be before the
    /// change counts (seeded, 5–15 % of the cell's side).
    var margin: Double
    /// How the reported point was found; `nil` when none was (the fix's own point, coarsened, is
    /// reported: see `PlaceApproximateRegions`).
    var source: RegionPoint.Source?
    var cell: CellBounds
}

/// The regions of one seed over one places database: the pure function behind
/// `PlaceApproximateRegions`, generic over the places so the tests can count what it asks.
final class RegionLayout<Places: ApproximationPlaces>: Sendable {
    /// Entries kept before the cache starts again (a region entry is ~150 bytes: ~30 MB at most).
    static var cacheLimit: Int { 200_000 }

    let places: Places
    let hash: SipHash
    let grid: RegionGrid
    private let cache = Locked(Cache())

    private struct Cache {
        var splits: [Int64: UInt8] = [:]
        var regions: [RegionKey: RegionEntry] = [:]
        var byIdentity: [UInt64: RegionEntry] = [:]
    }

    init(places: Places, seed: [UInt8]) {
        self.places = places
        hash = SipHash(seed: seed)
        grid = RegionGrid(hash: hash)
    }

    /// The region of a position, `nil` when the position is not valid.
    func entry(latitude: Double, longitude: Double) -> RegionEntry? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              let locality = places.localityKey(latitude: latitude, longitude: longitude) else { return nil }
        let longitude = RegionGrid.normalised(longitude)
        let (row, column, coarse) = grid.cell(latitude: latitude, longitude: longitude)
        let split = coarse.isCap ? 1 : self.split(row: row, column: column, coarse: coarse)
        let part = coarse.partIndex(latitude: latitude, longitude: longitude, of: split)
        let key = RegionKey(row: Int32(row), column: Int32(column), split: UInt8(split),
                            partRow: UInt8(part.row), partColumn: UInt8(part.column), locality: locality)
        if let entry = cache.withLock({ $0.regions[key] }) { return entry }
        let entry = makeEntry(key, cell: coarse.part(row: part.row, column: part.column, of: split), coarse: coarse)
        cache.withLock { cache in
            if cache.regions.count >= Self.cacheLimit {
                cache.regions.removeAll(keepingCapacity: true)
                cache.byIdentity.removeAll(keepingCapacity: true)
            }
            cache.regions[key] = entry
            cache.byIdentity[entry.region.id] = entry
        }
        return entry
    }

    /// The entry of a region this layout has handed out, while it is cached.
    func entry(identity: UInt64) -> RegionEntry? {
        cache.withLock { $0.byIdentity[identity] }
    }

    /// Parts per side of a coarse cell, from the population round its centre (cached per cell).
    private func split(row: Int, column: Int, coarse: CellBounds) -> Int {
        let cellKey = Int64(row) << 32 | Int64(column)
        if let split = cache.withLock({ $0.splits[cellKey] }) { return Int(split) }
        let centre = coarse.point(u: 0.5, v: 0.5)
        let population = places.populationNear(latitude: centre.latitude, longitude: centre.longitude,
                                               radius: RegionDensity.radius)
        let split = RegionDensity.split(population: population)
        cache.withLock { cache in
            if cache.splits.count >= Self.cacheLimit { cache.splits.removeAll(keepingCapacity: true) }
            cache.splits[cellKey] = UInt8(split)
        }
        return split
    }

    private func makeEntry(_ key: RegionKey, cell: CellBounds, coarse: CellBounds) -> RegionEntry {
        let locality = key.locality
        let packedCell = UInt64(UInt8(key.split)) << 16 | UInt64(key.partRow) << 8 | UInt64(key.partColumn)
        let packedLocality = UInt64(UInt32(bitPattern: locality.country)) << 32 | UInt64(UInt32(bitPattern: locality.locality))
        let identity = hash.hash([UInt64(UInt32(bitPattern: key.row)), UInt64(UInt32(bitPattern: key.column)),
                                  packedCell, packedLocality, UInt64(locality.surface.rawValue)])
        let middle = (cell.south + cell.north) / 2
        let height = cell.height * RegionGrid.metresPerDegree
        let side = cell.isCap ? height : min(height, cell.width * RegionGrid.metresPerDegree * cos(middle * .pi / 180))
        let margin = side * (0.05 + 0.10 * hash.unit([identity, 5]))
        let point = RegionPoint.find(key: locality, cell: cell, coarse: coarse, regionHash: identity, hash: hash, places: places)
        // Without a point of its own the region stands at its cell's centre until a fix says where.
        let reported = point.map { ($0.latitude, $0.longitude) } ?? cell.point(u: 0.5, v: 0.5)
        let radius = Self.radius(cell: cell, from: reported, margin: margin)
        return RegionEntry(
            region: ApproximateRegion(id: identity, latitude: reported.0, longitude: reported.1, radius: radius),
            locality: locality, margin: margin, source: point?.source, cell: cell)
    }

    /// The reported radius: the whole cell and the hysteresis margin round it, 1 km at least.
    static func radius(cell: CellBounds, from point: (latitude: Double, longitude: Double), margin: Double) -> Double {
        max(1_000, (RegionRadius.covering(cell, from: point) + margin).rounded(.up))
    }
}
