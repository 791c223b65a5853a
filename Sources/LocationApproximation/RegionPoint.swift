import LocationGeodesy

/// A region's reported point, chosen once per region from the region and the seed alone, never from
/// the position being reported.
struct RegionPoint: Sendable {
    /// How the point was found, best first. The tests count them.
    enum Source: Sendable, Hashable {
        /// The pole, for a polar cap's region that holds it.
        case pole
        /// A seeded random point of the region's cell with the region's key.
        case seededCandidate
        /// The locality's own point.
        case locality
        /// A point of a lattice over the region's coarse cell with the region's key.
        case coarseLattice
        /// Nothing with the region's key was found: a point of the coarse cell in the same country.
        case sameCountry
    }

    var latitude: Double
    var longitude: Double
    var source: Source

    /// Seeded candidates tried in the region's cell before anything else.
    static let candidateCount = 32
    /// Lattice points per side over the coarse cell, for regions too thin for the candidates.
    static let latticeSide = 16

    /// The point for region `key` in `cell` (a part of `coarse`), or `nil` when no point of the coarse
    /// cell was found in the region's country either (a sliver of a country that the lattice misses).
    static func find(key: LocalityKey, cell: CellBounds, coarse: CellBounds, regionHash: UInt64, hash: SipHash,
                     places: some ApproximationPlaces) -> RegionPoint? {
        func matches(_ point: (latitude: Double, longitude: Double)) -> Bool {
            places.localityKey(latitude: point.latitude, longitude: point.longitude) == key
        }
        if cell.isCap {
            // The pole is the cap's centre: every point of the cap is within its height of it.
            let pole = (latitude: cell.north >= 90 ? 90.0 : -90.0, longitude: 0.0)
            if matches(pole) { return RegionPoint(latitude: pole.latitude, longitude: pole.longitude, source: .pole) }
        }
        for index in 0..<candidateCount {
            let point = cell.point(u: hash.unit([regionHash, 1, UInt64(index)]), v: hash.unit([regionHash, 2, UInt64(index)]))
            if matches(point), RegionRadius.covering(cell, from: point) <= RegionRadius.maximumCell {
                return RegionPoint(latitude: point.latitude, longitude: point.longitude, source: .seededCandidate)
            }
        }
        if key.locality >= 0, let place = places.localityPosition(key.locality), matches(place),
           RegionRadius.covering(cell, from: place) <= RegionRadius.maximumCell {
            return RegionPoint(latitude: place.latitude, longitude: place.longitude, source: .locality)
        }
        // A seeded offset keeps the lattice, too, from being a public set of points.
        let offsetU = hash.unit([regionHash, 3]), offsetV = hash.unit([regionHash, 4])
        var sameCountry: (latitude: Double, longitude: Double)?
        for row in 0..<latticeSide {
            for column in 0..<latticeSide {
                let point = coarse.point(u: (Double(row) + offsetU) / Double(latticeSide),
                                         v: (Double(column) + offsetV) / Double(latticeSide))
                guard RegionRadius.covering(cell, from: point) <= RegionRadius.maximumCell,
                      let found = places.localityKey(latitude: point.latitude, longitude: point.longitude),
                      found.country == key.country, found.surface == key.surface else { continue }
                if found == key { return RegionPoint(latitude: point.latitude, longitude: point.longitude, source: .coarseLattice) }
                if sameCountry == nil { sameCountry = point }
            }
        }
        return sameCountry.map { RegionPoint(latitude: $0.latitude, longitude: $0.longitude, source: .sameCountry) }
    }
}

/// The radius round a reported point that holds a whole cell.
enum RegionRadius {
    /// The largest radius a cell may need, before the margin: the rest of the 20 km is the margin's.
    static let maximumCell = 18_000.0
    /// Slack for the ellipsoid against the corner argument below, which is exact on a sphere.
    static let slack = 1.005

    /// The distance from `point` to the farthest point of `cell`. Along a parallel the distance grows
    /// with the difference of longitude, and along a meridian (a great circle) it has no maximum
    /// inside a short arc, so the farthest point is a corner; a cap's is on its rim, opposite.
    static func covering(_ cell: CellBounds, from point: (latitude: Double, longitude: Double)) -> Double {
        let geodesic = Geodesic.wgs84
        func distance(_ latitude: Double, _ longitude: Double) -> Double {
            geodesic.distance(latitude1: point.latitude, longitude1: point.longitude, latitude2: latitude, longitude2: longitude)
        }
        if cell.isCap {
            let rim = cell.north >= 90 ? cell.south : cell.north
            let pole = cell.north >= 90 ? 90.0 : -90.0
            return slack * max(distance(pole, 0), distance(rim, RegionGrid.normalised(point.longitude + 180)))
        }
        let corners = [
            distance(cell.south, RegionGrid.normalised(cell.west)), distance(cell.south, RegionGrid.normalised(cell.east)),
            distance(cell.north, RegionGrid.normalised(cell.west)), distance(cell.north, RegionGrid.normalised(cell.east)),
        ]
        return slack * corners.max()!
    }
}
