#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LocationPlaces

// Reverse geocoding throughput over a file of points, for scripts/bench-places.sh, which runs PyPI
// reverse_geocoder on the same file in the same run.
//
// Usage: corelocation-bench places POINTS [--repeat R] [--countries OUT] [--lookup | --keys | --density M]
//   POINTS: little-endian float64 pairs (latitude, longitude), as bench-places.py writes them
//   OUT: each point's ISO country code (2 bytes, "--" for none), to compare answers with the peer
//   --lookup: time `reverseLookup` (indexes, no strings) instead of the full `reverseGeocode` answer
//   --keys: time `localityKey`; --density M: time `populationNear` with a radius of M metres
//   --batch: time the batch `reverseGeocode(_:threads:_:)` (the points answered in spatial order, sort included)
//   --threads T: the batch's threads (default: the processors online, at most 8)
// or:    corelocation-bench places-once LAT LON   (open the database, answer once: time to first answer)
//
// The best of R rounds is reported. Only the first round reads the answers (each one's country code and
// locality, counted and written to OUT); the rounds after it take them unread, as reverse_geocoder's timed
// call returns its list of answers and nothing reads it.

func runPlacesBenchmark(_ arguments: [String]) -> Never {
    guard let path = arguments.first else { placesUsage("missing POINTS file") }
    var repeats = 3
    var countriesPath: String?
    var lookupOnly = false, keysOnly = false, batch = false
    var densityRadius: Double?
    var threads = PlacesDatabase.batchThreads
    var it = arguments.dropFirst().makeIterator()
    while let flag = it.next() {
        if flag == "--batch" {
            batch = true
            continue
        }
        if flag == "--lookup" || flag == "--keys" {
            if flag == "--lookup" { lookupOnly = true } else { keysOnly = true }
            continue
        }
        guard let value = it.next() else { placesUsage("missing value for \(flag)") }
        switch flag {
        case "--density": densityRadius = Double(value)
        case "--repeat": repeats = Int(value) ?? 0
        case "--threads": threads = Int(value) ?? 0
        case "--countries": countriesPath = value
        default: placesUsage("unknown option \(flag)")
        }
    }
    if repeats < 1 { placesUsage("--repeat must be positive") }
    if threads < 1 { placesUsage("--threads must be positive") }

    let database = openPlaces()
    let points = readPoints(path)
    if keysOnly {
        timeQueries("swift-LocationPlaces-localityKey", points, repeats: repeats) { _, latitude, longitude, _ in
            let key = database.localityKey(latitude: latitude, longitude: longitude)
            return (key != nil, key?.locality != nil)
        }
        exit(0)
    }
    if let densityRadius {
        // "with_locality" counts points with anyone within the radius.
        timeQueries("swift-LocationPlaces-populationNear", points, repeats: repeats) { _, latitude, longitude, _ in
            let people = database.populationNear(latitude: latitude, longitude: longitude, radius: densityRadius)
            return (true, people > 0)
        }
        exit(0)
    }
    if lookupOnly {
        // The index-only path: what the answer costs before any string is made.
        timeQueries("swift-LocationPlaces-lookup", points, repeats: repeats) { _, latitude, longitude, _ in
            let hit = database.reverseLookup(latitude: latitude, longitude: longitude)
            return (hit?.polygonCountry != nil, hit?.place != nil)
        }
        exit(0)
    }
    var codes = CountryCodes(count: points.count / 2)
    if batch {
        timeBatch(database, points, repeats: repeats, threads: threads, codes: &codes)
        if let countriesPath { codes.write(to: countriesPath) }
        exit(0)
    }
    timeQueries("swift-LocationPlaces", points, repeats: repeats) { point, latitude, longitude, firstRound in
        // Fields read through the optional: binding `let place` would copy the whole answer.
        let place = database.reverseGeocode(latitude: latitude, longitude: longitude)
        // As the batch's: only the first round reads the answers (the counts are that round's).
        guard firstRound else { return (place != nil, false) }
        let code = place?.isoCountryCode
        if let code { codes.set(point, code) }
        return (code != nil, place?.locality != nil)
    }
    if let countriesPath { codes.write(to: countriesPath) }
    exit(0)
}

/// Times `answer` over every point, the best of `repeats` rounds, and prints the RESULT line with how many
/// answers named a country and a locality in the first round. Inlined, so the closure is too: no call per query.
@inline(__always)
private func timeQueries(
    _ impl: String, _ points: [Double], repeats: Int,
    _ answer: (_ point: Int, _ latitude: Double, _ longitude: Double, _ firstRound: Bool) -> (country: Bool, locality: Bool)
) {
    var best = Double.infinity
    var withCountry = 0, withLocality = 0
    let clock = ContinuousClock()
    for round in 0..<repeats {
        var countries = 0, localities = 0
        let elapsed = clock.measure {
            for i in 0..<(points.count / 2) {
                let found = answer(i, points[2 * i], points[2 * i + 1], round == 0)
                if found.country { countries += 1 }
                if found.locality { localities += 1 }
            }
        }
        best = min(best, seconds(elapsed))
        if round == 0 { (withCountry, withLocality) = (countries, localities) }
    }
    let count = points.count / 2
    let rate = Double(count) / best
    print("RESULT impl=\(impl) points=\(count) seconds=\(fixed(best, 4)) rate=\(Int(rate.rounded())) "
          + "ns_per_query=\(fixed(1e9 / rate, 1)) with_country=\(withCountry) with_locality=\(withLocality)")
}

/// Times the batch API over every point (the spatial sort included), the best of `repeats` rounds.
private func timeBatch(
    _ database: PlacesDatabase, _ points: [Double], repeats: Int, threads: Int, codes: inout CountryCodes
) {
    // The file's pairs as coordinates, without a copy (a copy would count in the peak memory).
    points.withUnsafeBufferPointer { pairs in
        pairs.withMemoryRebound(to: (latitude: Double, longitude: Double).self) { coordinates in
            timeBatch(database, coordinates, repeats: repeats, threads: threads, codes: &codes)
        }
    }
}

private func timeBatch(
    _ database: PlacesDatabase, _ coordinates: UnsafeBufferPointer<(latitude: Double, longitude: Double)>,
    repeats: Int, threads: Int, codes: inout CountryCodes
) {
    let count = coordinates.count
    var best = Double.infinity
    var withCountry = 0, withLocality = 0
    let clock = ContinuousClock()
    for round in 0..<repeats {
        var answered = 0
        let elapsed = clock.measure {
            database.reverseGeocode(coordinates, threads: threads) { point, place in
                // Tested through the optional: binding `let place` would copy the answer.
                if place != nil { answered += 1 }
                // The first round also reads every answer's country and locality, to compare them with
                // reverse_geocoder's; the rounds after it take the answers as reverse_geocoder's timed call
                // does (it returns its list, nothing reads it).
                guard round == 0 else { return }
                if let code = place?.isoCountryCode {
                    codes.set(point, code)
                    withCountry += 1
                }
                if place?.locality != nil { withLocality += 1 }
            }
        }
        best = min(best, seconds(elapsed))
        precondition(answered == count, "a point without an answer")
    }
    let rate = Double(count) / best
    print("RESULT impl=swift-LocationPlaces-batch threads=\(threads) points=\(count) seconds=\(fixed(best, 4)) "
          + "rate=\(Int(rate.rounded())) "
          + "ns_per_query=\(fixed(1e9 / rate, 1)) with_country=\(withCountry) with_locality=\(withLocality)")
}

/// Each point's ISO country code as 2 ASCII bytes ("--" for none), for comparing answers in Python.
private struct CountryCodes {
    private var bytes: [UInt8]

    init(count: Int) { bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 2 * count) }

    mutating func set(_ point: Int, _ code: String) {
        guard code.utf8.count == 2 else { return }
        bytes[2 * point] = code.utf8.first!
        bytes[2 * point + 1] = code.utf8.last!
    }

    func write(to path: String) {
        guard let file = fopen(path, "wb") else { placesUsage("cannot write \(path)") }
        bytes.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }
}

/// Each point's polygon country (or territorial sea), for cross-checking the grid against the polygons
/// themselves (scripts/places/check-polygons.py).
func runPlacesPolygons(_ arguments: [String]) -> Never {
    guard arguments.count == 2 else { placesUsage("places-polygons needs POINTS OUT") }
    let database = openPlaces()
    let points = readPoints(arguments[0])
    var codes = CountryCodes(count: points.count / 2)
    for i in 0..<(points.count / 2) {
        if let code = database.polygonCountryCode(latitude: points[2 * i], longitude: points[2 * i + 1]) {
            codes.set(i, code)
        }
    }
    codes.write(to: arguments[1])
    exit(0)
}

/// Every point's whole answer as a line of text (in the points' order), through one call a point or, with
/// `--batch`, the batch: two builds, or the two paths, must write identical files.
func runPlacesDump(_ arguments: [String]) -> Never {
    guard arguments.count == 2 || (arguments.count == 3 && arguments[2] == "--batch") else {
        placesUsage("places-dump needs POINTS OUT [--batch]")
    }
    let database = openPlaces()
    let points = readPoints(arguments[0])
    let coordinates = (0..<(points.count / 2)).map { (latitude: points[2 * $0], longitude: points[2 * $0 + 1]) }
    let answers = arguments.count == 3
        ? database.reverseGeocode(coordinates)
        : coordinates.map { database.reverseGeocode(latitude: $0.latitude, longitude: $0.longitude) }
    guard let file = fopen(arguments[1], "wb") else { placesUsage("cannot write \(arguments[1])") }
    for answer in answers {
        let line = answer.map { place in
            [place.name, place.locality, place.subLocality, place.subAdministrativeArea, place.administrativeArea,
             place.country, place.isoCountryCode, place.timeZoneIdentifier, place.ocean, place.inlandWater]
                .map { $0 ?? "-" }.joined(separator: "|")
                + "|\(place.latitude)|\(place.longitude)|\(place.radius)|\(place.population.map(String.init) ?? "-")"
        } ?? "nil"
        fputs(line + "\n", file)
    }
    fclose(file)
    exit(0)
}

func runPlacesOnce(_ arguments: [String]) -> Never {
    guard arguments.count == 2, let latitude = Double(arguments[0]), let longitude = Double(arguments[1]) else {
        placesUsage("places-once needs LAT LON")
    }
    let place = openPlaces().reverseGeocode(latitude: latitude, longitude: longitude)
    print(place.map { [$0.locality, $0.administrativeArea, $0.isoCountryCode].compactMap { $0 }.joined(separator: ", ") }
          ?? "no result")
    exit(place == nil ? 1 : 0)
}

private func openPlaces() -> PlacesDatabase {
    switch PlacesDatabase.shared {
    case .success(let database): return database
    case .failure(let error): placesUsage("\(error)")
    }
}

/// The whole file as [lat0, lon0, lat1, lon1, …].
private func readPoints(_ path: String) -> [Double] {
    guard let file = fopen(path, "rb") else { placesUsage("cannot open \(path)") }
    defer { fclose(file) }
    fseek(file, 0, SEEK_END)
    let bytes = ftell(file)
    fseek(file, 0, SEEK_SET)
    guard bytes > 0, bytes % 16 == 0 else { placesUsage("\(path) is not a file of float64 pairs") }
    var values = [Double](repeating: 0, count: bytes / 8)
    let read = values.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
    guard read == bytes else { placesUsage("short read from \(path)") }
    return values  // Little-endian on every platform we build for.
}

private func placesUsage(_ message: String) -> Never {
    print("corelocation-bench: \(message)\nusage: corelocation-bench places POINTS [--repeat R] [--countries OUT]\n"
          + "       corelocation-bench places-once LAT LON")
    exit(2)
}
