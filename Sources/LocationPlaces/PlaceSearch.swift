/// Forward geocoding at the level of places: "Place", "Place, Country", "Place, Subdivision[, Country]".
///
/// The first comma-separated component is looked up in `NIDX` (exact folded key, else keys it is a prefix
/// of, for three characters or more); later components are qualifiers every result must satisfy, each
/// matching the place's country (ISO code, English name, a common alias) or its subdivision's name.
/// Ranking: exact name (or any exact spelling of a place of 100,000 people or more) > exact other spelling
/// (ASCII, alternate) > prefix; then inside the preferred region; then population.
extension PlacesDatabase {
    /// Longer text is not a place name (and would only cost time to fold): no results.
    public static let maximumSearchBytes = 1_024

    /// From this population an alternate spelling ranks with names (Roma, Wien, München).
    static let bigPlacePopulation: UInt32 = 100_000
    /// Prefix matches beyond this many index entries are not examined (a two-letter prefix of a common
    /// word would otherwise scan a large part of the index).
    static let maximumPrefixEntries = 20_000

    public func search(_ text: String, preferring region: SearchRegion? = nil, limit: Int = 10) -> [PlaceDescription] {
        guard limit > 0, text.utf8.count <= Self.maximumSearchBytes else { return [] }
        let components = text.split(separator: ",").map { NameFolding.fold(String($0)) }.filter { !$0.isEmpty }
        guard let key = components.first else { return [] }
        var qualifiers = components.dropFirst().map { SearchQualifier(folded: $0) }
        let keyBytes = Array(key.utf8)

        var candidates: [Candidate] = []
        let exact = nameRange(matching: keyBytes, prefix: false)
        for entry in exact {
            let place = tables.namePlace(entry)
            guard satisfies(place, &qualifiers) else { continue }
            // A big place's other spelling counts as its name: "Roma" is Rome (2.3 million people, an
            // alternate name) before Roma in Lesotho (its name); "Paris" is not Parys (40,000).
            let isName = NameFolding.fold(tables.string(tables.placeNameRef(place))) == key
            let isBig = tables.placePopulation(place) >= Self.bigPlacePopulation
            candidates.append(Candidate(place: place, quality: isName || isBig ? 0 : 1))
        }
        if candidates.isEmpty, key.unicodeScalars.count >= 3 {
            let prefixed = nameRange(matching: keyBytes, prefix: true)
            for entry in prefixed.prefix(Self.maximumPrefixEntries) where !exact.contains(entry) {
                let place = tables.namePlace(entry)
                guard satisfies(place, &qualifiers) else { continue }
                candidates.append(Candidate(place: place, quality: 2))
            }
        }
        return rank(candidates, region: region, limit: limit).map { place in
            let coordinate = tables.coordinate(ofPlace: place)
            return describe(place: place, latitude: coordinate.latitude, longitude: coordinate.longitude)
        }
    }

    private struct Candidate {
        let place: Int
        let quality: Int
    }

    /// Best match quality per place, then the order the documentation gives.
    private func rank(_ candidates: [Candidate], region: SearchRegion?, limit: Int) -> [Int] {
        var bestQuality: [Int: Int] = [:]
        for candidate in candidates {
            bestQuality[candidate.place] = Swift.min(bestQuality[candidate.place] ?? .max, candidate.quality)
        }
        let regionCentre = region.map { PlacesTables.unitVector(latitude: $0.latitude, longitude: $0.longitude) }
        let regionChord = region.map { Float(chordLength(metres: Swift.min($0.radius, 20_000_000))) }
        let keyed = bestQuality.map { place, quality in
            var outside = 0
            if let regionCentre, let regionChord {
                let delta = tables.vector(place) - regionCentre
                outside = (delta * delta).sum().squareRoot() <= regionChord ? 0 : 1
            }
            return (place: place, quality: quality, outside: outside, population: tables.placePopulation(place))
        }
        return keyed.sorted {
            ($0.quality, $0.outside, UInt32.max - $0.population, $0.place)
                < ($1.quality, $1.outside, UInt32.max - $1.population, $1.place)
        }.prefix(limit).map(\.place)
    }

    // MARK: Qualifiers

    private func satisfies(_ place: Int, _ qualifiers: inout [SearchQualifier]) -> Bool {
        for index in qualifiers.indices where !qualifiers[index].matches(place: place, in: tables) {
            return false
        }
        return true
    }

    // MARK: The name index

    /// `NIDX` entries whose key equals `key` (or starts with it, for `prefix`): a contiguous range, as the
    /// index is sorted by key bytes.
    private func nameRange(matching key: [UInt8], prefix: Bool) -> Range<Int> {
        let lower = firstEntry { compare(entry: $0, with: key, prefixOnly: false) >= 0 }
        let upper = firstEntry { compare(entry: $0, with: key, prefixOnly: prefix) > 0 }
        return lower..<Swift.max(lower, upper)
    }

    /// The first entry for which `isAtOrPast` holds (it is monotonic over the sorted index).
    private func firstEntry(where isAtOrPast: (Int) -> Bool) -> Int {
        var low = 0, high = tables.nameCount
        while low < high {
            let mid = low + (high - low) / 2
            if isAtOrPast(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The entry's key against `key` by bytes; with `prefixOnly`, a key that starts with `key` compares equal.
    private func compare(entry: Int, with key: [UInt8], prefixOnly: Bool) -> Int {
        let bytes = tables.stringBytes(tables.nameKeyRef(entry))
        let common = Swift.min(bytes.count, key.count)
        for index in 0..<common where bytes[index] != key[index] {
            return bytes[index] < key[index] ? -1 : 1
        }
        if bytes.count == key.count || (prefixOnly && bytes.count > key.count) { return 0 }
        return bytes.count < key.count ? -1 : 1
    }
}

/// One ", …" component after the place name: satisfied by a place whose country (ISO code, English name,
/// alias) or first-level subdivision (name) it names. Folded names of countries and subdivisions seen are
/// remembered for the rest of the search.
struct SearchQualifier {
    let folded: String
    private var countryMatches: [Int: Bool] = [:]
    private var subdivisionMatches: [Int: Bool] = [:]

    init(folded: String) {
        self.folded = folded
    }

    mutating func matches(place: Int, in tables: PlacesTables) -> Bool {
        let country = tables.placeCountry(place)
        if matchesCountry(country, in: tables) { return true }
        let subdivision = tables.placeSubdivision(place)
        guard subdivision != PlacesTables.none16 else { return false }
        return matchesSubdivision(Int(subdivision), in: tables)
    }

    private mutating func matchesCountry(_ country: Int, in tables: PlacesTables) -> Bool {
        if let known = countryMatches[country] { return known }
        let code = tables.countryCode(country)
        let matched = folded == code.lowercased()
            || folded == NameFolding.fold(tables.string(tables.countryNameRef(country)))
            || CountryAliases.code(forFolded: folded) == code
        countryMatches[country] = matched
        return matched
    }

    private mutating func matchesSubdivision(_ subdivision: Int, in tables: PlacesTables) -> Bool {
        if let known = subdivisionMatches[subdivision] { return known }
        let name = NameFolding.fold(tables.string(tables.subdivisionNameRef(subdivision)))
        var matched = folded == name
        if !matched, tables.countryCode(tables.subdivisionCountry(subdivision)) == "US" {
            matched = USStateAbbreviations.name(forFolded: folded).map { NameFolding.fold($0) == name } ?? false
        }
        subdivisionMatches[subdivision] = matched
        return matched
    }
}
