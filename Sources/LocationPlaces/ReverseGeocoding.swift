/// Reverse geocoding as indexes: what `reverseGeocode` answers before any string is made, for the
/// benchmark and for callers that only need the country.
public struct ReverseHit: Sendable, Hashable {
    public enum Surface: Sendable, Hashable {
        /// Inside a country's polygons (or within 2 km of its boundary: the polygons' resolution).
        case land
        /// Within 12 nautical miles of a country's boundary.
        case territorialSea
        /// Beyond every territorial sea.
        case sea
    }

    public var surface: Surface
    /// Index of the country whose polygon (or territorial sea) holds the point.
    public var polygonCountry: Int?
    /// Index of the nearest place within `PlacesDatabase.localityRange` (on land only).
    public var place: Int?
    /// Index of that place's municipality: the place itself, or the city a district belongs to.
    public var locality: Int?
    /// The water body, at sea and in territorial seas.
    public var water: WaterBody?
}

extension PlacesDatabase {
    /// A locality is named only within this distance of the point; beyond it the answer is the country
    /// alone (50 km: a town's sphere of influence, and GeoNames' cities1000 leaves few land points farther
    /// from a place outside deserts, ice and tundra).
    public static let localityRange = 50_000.0

    /// `Float(chordLength(metres: localityRange))` squared, as a literal: a computed `static let` is
    /// initialised lazily, and its guard was taken on every search (a test checks the value).
    static let localityChordSquared: Float = 0x1.025578p-14

    /// The indexes behind `reverseGeocode`; `nil` for coordinates that are not finite or out of range.
    /// No allocation.
    public func reverseLookup(latitude: Double, longitude: Double) -> ReverseHit? {
        guard let longitude = Self.normalisedLongitude(latitude: latitude, longitude: longitude) else { return nil }
        let (row, column) = PlacesTables.gridCell(latitude: latitude, longitude: longitude)
        var memory = AnswerMemory(remembers: false)
        switch cellEntries.kind(row: row, column: column) {
        case .land(let country, let noPlaceInReach):
            let found = noPlaceInReach
                ? nil : nearestPlace(inCountry: country, latitude: latitude, longitude: longitude, memory: &memory)
            return ReverseHit(surface: .land, polygonCountry: country, place: found,
                              locality: found.map(tables.placeMunicipality), water: nil)
        case .sea(let answer):
            let water = WaterBody.allCases[answer / WaterBody.nauticalZones.count]
            return ReverseHit(surface: .sea, polygonCountry: nil, place: nil, locality: nil, water: water)
        case .mixed(let cell):
            var hit = polygonHit(mixedCell: cell, row: row, column: column, latitude: latitude, longitude: longitude,
                                 memory: &memory)
            hit.locality = hit.place.map(tables.placeMunicipality)
            return hit
        case .general:
            var hit = polygonHit(mixedCell: nil, row: row, column: column, latitude: latitude, longitude: longitude,
                                 memory: &memory)
            hit.locality = hit.place.map(tables.placeMunicipality)
            return hit
        }
    }

    /// The hit where the cell alone cannot answer: the polygons of mixed cell `cell`, or, for a cell
    /// `CellEntries` leaves to GRID, whatever GRID says.
    private func polygonHit(
        mixedCell cell: Int?, row: Int, column: Int, latitude: Double, longitude: Double, memory: inout AnswerMemory
    ) -> ReverseHit {
        let answer = if let cell {
            tables.locate(latitude: latitude, longitude: longitude, inMixedCell: cell, row: row, column: column,
                          entries: cellEntries, geometry: cellGeometry)
        } else {
            tables.locate(latitude: latitude, longitude: longitude, entries: cellEntries, geometry: cellGeometry)
        }
        return hit(answer, latitude: latitude, longitude: longitude, memory: &memory)
    }

    /// The polygons' answer as a `ReverseHit`, with the nearest place on land (its `locality` left for
    /// the caller: an answer that repeats the previous place never reads it) and the water at sea.
    private func hit(
        _ answer: PolygonAnswer, latitude: Double, longitude: Double, memory: inout AnswerMemory
    ) -> ReverseHit {
        switch answer {
        case .land(let country), .nearCoast(let country):
            let found = nearestPlace(inCountry: country, latitude: latitude, longitude: longitude, memory: &memory)
            return ReverseHit(surface: .land, polygonCountry: country, place: found, locality: nil, water: nil)
        case .territorialSea(let country):
            return ReverseHit(surface: .territorialSea, polygonCountry: country, place: nil, locality: nil,
                              water: WaterBody.at(latitude: latitude, longitude: longitude))
        case .sea:
            return ReverseHit(surface: .sea, polygonCountry: nil, place: nil, locality: nil,
                              water: WaterBody.at(latitude: latitude, longitude: longitude))
        }
    }

    /// The nearest of `country`'s places within `localityRange`: in a batch, from the leaf of
    /// `NearestCandidates` that holds the point when it can tell, else by the k-d search. In a batch (`memory.remembers`), when
    /// the previous search found a place in the same country, the search starts bounded by that place's
    /// distance: only subtrees that can hold a place at least as near are visited, so the same place is
    /// found (of places at exactly equal distances, possibly another one).
    /// `leaf`: the point's leaf word in `country`'s candidate tree, when the caller has found it.
    @inline(__always)
    private func nearestPlace(
        inCountry country: Int, latitude: Double, longitude: Double, leaf: UInt32? = nil, memory: inout AnswerMemory
    ) -> Int? {
        let target = PlacesTables.unitVector(latitude: latitude, longitude: longitude)
        // Only in a batch: its Morton order keeps a cell's tree and candidates in the caches. One call a point
        // would wait on a chain of misses down the tree (`NRCL`, `NRPT`, a node a level, `NRCA`: one call near
        // places measured 860 ns instead of 680), where the k-d tree's upper levels stay cached for every call.
        if memory.remembers, let candidates = tables.nearestCandidates {
            let start = tables.countryPlaceStart(country)
            let countryPlaces = start..<(start + tables.countryPlaceCount(country))
            var word = leaf
            if word == nil {
                let (row, column) = PlacesTables.gridCell(latitude: latitude, longitude: longitude)
                let cell = row * PlacesTables.gridColumns + column
                if let remembered = memory.leaf(cell: cell, country: country, latitude: latitude, longitude: longitude) {
                    word = remembered.word
                } else if let found = candidates.leaf(
                    row: row, column: column, country: country, latitude: latitude, longitude: longitude) {
                    memory.remember(found, cell: cell, country: country)
                    word = found.word
                }
            }
            let answer = word.map {
                candidates.nearest(leaf: $0, countryPlaces: countryPlaces, target: target,
                                   maxChordSquared: Self.localityChordSquared, vectors: placeVectors)
            } ?? .search
            if case .nearest(let found) = answer {
                if memory.remembers, let found {
                    memory.searchCountry = country
                    memory.searchPlace = found
                }
                return found
            }
        }
        var bound = Self.localityChordSquared
        if memory.searchCountry == country {
            bound = Swift.min(bound, PlaceVectors.squaredDistance(target, placeVectors[memory.searchPlace]).nextUp)
        }
        let found = tables.nearestPlace(inCountry: country, to: target, maxChordSquared: bound, vectors: placeVectors)
        if memory.remembers, let found {
            memory.searchCountry = country
            memory.searchPlace = found
        }
        return found
    }

    /// `NearestCandidates.insideLeaf`, from the leaf `memory` kept when it holds the point.
    @inline(__always)
    private func insideLeaf(
        row: Int, column: Int, latitude: Double, longitude: Double, memory: inout AnswerMemory
    ) -> (country: Int, leaf: CandidateLeaf)? {
        let cell = row * PlacesTables.gridColumns + column
        if let remembered = memory.leaf(cell: cell, country: nil, latitude: latitude, longitude: longitude),
           remembered.inside {
            return (memory.leafCountry, remembered)
        }
        guard let found = tables.nearestCandidates?.insideLeaf(
            row: row, column: column, latitude: latitude, longitude: longitude) else { return nil }
        memory.remember(found.leaf, cell: cell, country: found.country)
        return found
    }

    /// The ISO code of the country whose polygon or territorial sea holds the point (not the locality's
    /// country: a point in Réunion gives FR here, RE from `reverseGeocode`).
    public func polygonCountryCode(latitude: Double, longitude: Double) -> String? {
        guard let country = reverseLookup(latitude: latitude, longitude: longitude)?.polygonCountry else { return nil }
        return names.countryCodes[country]
    }

    public func reverseGeocode(latitude: Double, longitude: Double) -> PlaceDescription? {
        var memory = AnswerMemory(remembers: false)
        return reverseGeocode(latitude: latitude, longitude: longitude, memory: &memory)
    }

    /// `reverseGeocode(latitude:longitude:)`, reusing what `memory` kept of the previous answer (a batch's).
    @inline(__always)
    func reverseGeocode(latitude: Double, longitude: Double, memory: inout AnswerMemory) -> PlaceDescription? {
        guard let longitude = Self.normalisedLongitude(latitude: latitude, longitude: longitude) else { return nil }
        let (row, column) = PlacesTables.gridCell(latitude: latitude, longitude: longitude)
        let hit: ReverseHit
        switch cellEntries.kind(row: row, column: column) {
        case .land(let country, let noPlaceInReach):
            // Inside one country's polygons.
            let found = noPlaceInReach
                ? nil : nearestPlace(inCountry: country, latitude: latitude, longitude: longitude, memory: &memory)
            return landAnswer(country: country, place: found, latitude: latitude, longitude: longitude, memory: &memory)
        case .sea(let answer):
            // Open sea, most of the Earth: a prebuilt answer, shared.
            return PlaceDescription(strings: seaAnswers[answer], latitude: latitude, longitude: longitude)
        case .mixed(let cell):
            if memory.remembers,
               let (country, leaf) = insideLeaf(row: row, column: column, latitude: latitude, longitude: longitude,
                                                memory: &memory) {
                // The point's leaf lies wholly inside `country`'s polygons: what the point in polygon answers.
                let found = nearestPlace(inCountry: country, latitude: latitude, longitude: longitude, leaf: leaf.word,
                                         memory: &memory)
                return landAnswer(country: country, place: found, latitude: latitude, longitude: longitude,
                                  memory: &memory)
            }
            hit = polygonHit(mixedCell: cell, row: row, column: column, latitude: latitude, longitude: longitude,
                             memory: &memory)
        case .general:
            hit = polygonHit(mixedCell: nil, row: row, column: column, latitude: latitude, longitude: longitude,
                             memory: &memory)
        }
        if hit.surface == .land, let country = hit.polygonCountry {
            return landAnswer(country: country, place: hit.place, latitude: latitude, longitude: longitude, memory: &memory)
        }
        if hit.surface == .sea, let water = hit.water {
            let strings = seaAnswers[CellEntries.seaAnswerIndex(water: water, longitude: longitude)]
            return PlaceDescription(strings: strings, latitude: latitude, longitude: longitude)
        }
        return waterAnswer(hit, latitude: latitude, longitude: longitude, memory: &memory)
    }

    /// In a territorial sea (or, should the polygons say so, at sea or on land without a country): the water
    /// and the country. In a batch, consecutive points off the same coast share one answer's strings, as the
    /// answers for places do, instead of building and freeing them a point.
    private func waterAnswer(
        _ hit: ReverseHit, latitude: Double, longitude: Double, memory: inout AnswerMemory
    ) -> PlaceDescription {
        let country = hit.polygonCountry
        // The zone is the country's, else at sea the nautical zone of the longitude.
        let countryZone = country.map { tables.countryTimeZone($0) } ?? PlacesTables.none16
        let zoneKey = countryZone != PlacesTables.none16 ? Int(countryZone)
            : hit.water != nil ? -2 - WaterBody.nauticalZoneIndex(longitude: longitude) : -1
        let key = WaterAnswerKey(country: country ?? -1, water: hit.water?.ordinal ?? -1, zone: zoneKey)
        if memory.remembers, let strings = memory.waterAnswer(key) {
            return PlaceDescription(strings: strings, latitude: latitude, longitude: longitude)
        }
        let countryName = country.map { names.countryNames[$0] }
        var zone = names.timeZone(countryZone)
        if zone == nil, hit.water != nil { zone = WaterBody.nauticalTimeZone(longitude: longitude) }
        let inland = hit.water.flatMap { $0.isInland ? $0.name : nil }
        let ocean = hit.water.flatMap { $0.isInland ? nil : $0.name }
        let answer = PlaceDescription(
            name: inland ?? ocean ?? countryName, country: countryName,
            isoCountryCode: country.map { names.countryCodes[$0] }, timeZoneIdentifier: zone,
            ocean: ocean, inlandWater: inland, latitude: latitude, longitude: longitude, radius: 0)
        memory.keepWaterAnswer(answer.sharedStrings, for: key)
        return answer
    }

    /// On land in `country`: the nearest place within reach (`place`), else (deserts, ice, tundra) the
    /// country's prebuilt answer.
    private func landAnswer(
        country: Int, place: Int?, latitude: Double, longitude: Double, memory: inout AnswerMemory
    ) -> PlaceDescription {
        if let place {
            guard let recent = memory.recentAnswers else {
                return describe(place: place, latitude: latitude, longitude: longitude)
            }
            if var answer = recent.answer(for: place) {
                // An answer built for the same place: only the queried point differs.
                answer.latitude = latitude
                answer.longitude = longitude
                return answer
            }
            let answer = describe(place: place, latitude: latitude, longitude: longitude)
            recent.keep(answer, for: place)
            return answer
        }
        return PlaceDescription(strings: countryAnswers[country], latitude: latitude, longitude: longitude)
    }

    /// A place as a placemark. The locality is the place's municipality (the place itself, or the city a
    /// district belongs to); the district, when the place is one, is the sub-locality and the name (the most
    /// precise place known, as Apple's name is).
    /// Country (GeoNames' code, e.g. RE for Réunion), subdivisions and zone (else its country's) are the
    /// nearest place's own, and so is the circle, sized by its population (the place `name` names).
    func describe(place: Int, latitude: Double, longitude: Double) -> PlaceDescription {
        describe(place: place, municipality: tables.placeMunicipality(place), latitude: latitude, longitude: longitude)
    }

    /// `describe(place:latitude:longitude:)` with the place's municipality already read.
    func describe(place: Int, municipality: Int, latitude: Double, longitude: Double) -> PlaceDescription {
        // Every record the answer needs is read before any string is made: the loads are cache misses at
        // random in the file, and issued together they overlap, where reading each as its string was made
        // waited for them one after another (municipality name, PAD2, ADM2, its name: the answer's cost).
        let localityRef = tables.placeNameRef(municipality)
        let districtRef = municipality == place ? PlacesTables.none32 : tables.placeNameRef(place)
        let secondLevel = tables.placeSecondLevelSubdivision(place)
        let subdivision = tables.placeSubdivision(place)
        let country = tables.placeCountry(place)
        let population = Int(tables.placePopulation(place))
        var zone = tables.placeTimeZone(place)
        if zone == PlacesTables.none16 { zone = tables.countryTimeZone(country) }
        let localityBytes = tables.stringBytes(localityRef)
        let districtBytes = districtRef == PlacesTables.none32 ? nil : tables.stringBytes(districtRef)
        let secondLevelBytes = secondLevel == PlacesTables.none16
            ? nil : tables.stringBytes(tables.secondLevelNameRef(Int(secondLevel)))

        let locality = String(decoding: localityBytes, as: UTF8.self)
        let district = districtBytes.map { String(decoding: $0, as: UTF8.self) }
        return PlaceDescription(
            name: district ?? locality, locality: locality, subLocality: district,
            subAdministrativeArea: secondLevelBytes.map { String(decoding: $0, as: UTF8.self) },
            administrativeArea: names.subdivision(subdivision),
            country: names.countryNames[country], isoCountryCode: names.countryCodes[country],
            timeZoneIdentifier: names.timeZone(zone),
            latitude: latitude, longitude: longitude,
            radius: Self.radius(population: population), population: population)
    }

    /// The circle that stands for a place: 20 m × √population, between 500 m and 30 km (a village of
    /// 1,000 people gets ~630 m, a city of a million 20 km).
    static func radius(population: Int) -> Double {
        Swift.min(30_000, Swift.max(500, 20 * Double(population).squareRoot()))
    }

    /// The longitude in [-180, 180) (180 ≡ -180), or `nil` when the coordinate is not finite or out of range.
    @inline(__always)
    static func normalisedLongitude(latitude: Double, longitude: Double) -> Double? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        return longitude == 180 ? -180 : longitude
    }
}
