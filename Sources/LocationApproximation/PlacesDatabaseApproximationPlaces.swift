import Foundation
import LocationGeodesy
import LocationPlaces

/// `ApproximationPlaces` over `PlacesDatabase`'s reverse lookup and place records.
struct PlacesDatabaseApproximationPlaces: ApproximationPlaces {
    let database: PlacesDatabase

    /// Lattice points per side of the square `populationNear` samples.
    static let populationLattice = 9

    func localityKey(latitude: Double, longitude: Double) -> LocalityKey? {
        guard let hit = database.reverseLookup(latitude: latitude, longitude: longitude) else { return nil }
        let surface: LocalityKey.Surface = switch hit.surface {
        case .land: .land
        case .territorialSea: .territorialSea
        case .sea: .sea
        }
        return LocalityKey(country: Int32(hit.polygonCountry ?? -1), locality: Int32(hit.place ?? -1), surface: surface)
    }

    /// The population of the places nearest to a 9 × 9 lattice over the square round the circle,
    /// counting those whose extent reaches into it. A village whose territory holds no lattice point is
    /// missed; the towns and cities that decide how dense a neighbourhood is are not.
    func populationNear(latitude: Double, longitude: Double, radius: Double) -> Int {
        let metresPerDegree = 111_195.0
        let latitudeStep = 2 * radius / metresPerDegree / Double(Self.populationLattice - 1)
        let cosine = max(0.01, cos(latitude * .pi / 180))
        let longitudeStep = latitudeStep / cosine
        var seen: Set<Int> = []
        var total = 0
        let half = Double(Self.populationLattice - 1) / 2
        for row in 0..<Self.populationLattice {
            let sampleLatitude = latitude + (Double(row) - half) * latitudeStep
            guard abs(sampleLatitude) <= 90 else { continue }
            for column in 0..<Self.populationLattice {
                let sampleLongitude = RegionGrid.normalised(longitude + (Double(column) - half) * longitudeStep)
                guard let place = database.reverseLookup(latitude: sampleLatitude, longitude: sampleLongitude)?.place,
                      seen.insert(place).inserted, let record = database.placeRecord(place) else { continue }
                let distance = Geodesic.wgs84.distance(latitude1: latitude, longitude1: longitude,
                                                       latitude2: record.latitude, longitude2: record.longitude)
                if distance <= radius + Self.extent(population: record.population) { total += record.population }
            }
        }
        return total
    }

    /// The radius of a place's extent: its population on a disc at 5,000 people a km² (8 m × √population:
    /// 8 km for a million people, 25 km for ten million). The database has a point for each place, and
    /// a city of millions is one point: without its extent, its outskirts would count as empty land.
    static func extent(population: Int) -> Double {
        8 * Double(max(0, population)).squareRoot()
    }

    func localityPosition(_ locality: Int32) -> (latitude: Double, longitude: Double)? {
        database.placeRecord(Int(locality)).map { ($0.latitude, $0.longitude) }
    }
}
