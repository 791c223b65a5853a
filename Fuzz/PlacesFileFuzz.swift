// libFuzzer target for places.bin (PlacesDatabase.open and every query on what opens): built by
// scripts/fuzz-places.sh against LocationPlaces.
//
// An input is one of two things:
// - a whole file, when it starts with the magic "CLPLACES": written as it is;
// - otherwise a list of sections — a 4-byte tag, a little-endian u32 length, that many bytes (cut at
//   the input's end) — written as a file with a well-formed header and directory. The two sections
//   with an entry for each of the 259,200 grid cells come sparse, as (u32 cell, u32 value) pairs:
//   GRID sets each pair's cell (the others 0), NRCL a step from each pair's cell on. Without this,
//   nearly every mutation of a ~2 MB file would land in those two tables, and a shorter one would
//   never pass the first size check, so the validation and queries behind it would go unfuzzed.
//
// Errors are fine (they must say why); besides crashes and AddressSanitizer reports it traps when a
// database that opened answers with an index out of its tables, answers a coordinate that is not
// finite, or — for a file without nearest-place candidates, where both take the same path — when the
// batch and one call a point disagree. fatalError, not precondition, so that -O builds print what
// broke.

import Foundation
import LocationPlaces

private let gridCells = 720 * 360
private let scratchPath = NSTemporaryDirectory() + "/places-fuzz-\(getpid()).bin"

@_cdecl("LLVMFuzzerTestOneInput")
public func placesFileFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    var file: [UInt8]
    var setCells: [Int] = []
    let mayHaveCandidates: Bool
    if input.starts(with: Array("CLPLACES".utf8)) {
        file = Array(input)
        mayHaveCandidates = contains(input, Array("NRCL".utf8))
    } else {
        let sections = parseSections(input)
        file = fileBytes(sections.list)
        setCells = sections.setCells
        mayHaveCandidates = sections.list.contains { $0.tag == Array("NRCL".utf8) }
    }
    write(file, to: scratchPath)
    file = []
    let database: PlacesDatabase
    do {
        database = try PlacesDatabase.open(path: scratchPath)
    } catch {
        if error.description.isEmpty { fatalError("an error without a reason") }
        return 0
    }
    query(database, at: queryPoints(setCells), batchMustAgree: !mayHaveCandidates)
    return 0
}

/// Every query a database that opened answers, checked against its own tables.
private func query(_ database: PlacesDatabase, at points: [(latitude: Double, longitude: Double)], batchMustAgree: Bool) {
    let countries = database.countryCount, places = database.placeCount
    func checkPlace(_ index: Int?, _ what: String) {
        if let index, !(0..<places).contains(index) { fatalError("\(what) \(index) outside \(places) places") }
    }
    var single: [PlaceDescription?] = []
    for point in points {
        let finite = point.latitude.isFinite && point.longitude.isFinite
        let answer = database.reverseGeocode(latitude: point.latitude, longitude: point.longitude)
        if !finite, answer != nil { fatalError("an answer for \(point)") }
        if let answer, !answer.latitude.isFinite || !answer.longitude.isFinite {
            fatalError("an answer at a coordinate that is not finite: \(answer)")
        }
        single.append(answer)
        if let hit = database.reverseLookup(latitude: point.latitude, longitude: point.longitude) {
            if let country = hit.polygonCountry, !(0..<countries).contains(country) {
                fatalError("country \(country) outside \(countries) countries")
            }
            checkPlace(hit.place, "place")
            checkPlace(hit.locality, "locality")
        }
        if let key = database.localityKey(latitude: point.latitude, longitude: point.longitude) {
            if database.isoCountryCode(country: key.country) == nil { fatalError("key country \(key.country)") }
            checkPlace(key.locality, "key locality")
        }
        if database.populationNear(latitude: point.latitude, longitude: point.longitude, radius: 10_000) < 0 {
            fatalError("a negative population near \(point)")
        }
    }
    if batchMustAgree {
        let batch = database.reverseGeocode(points)
        for (index, answer) in batch.enumerated() where answer != single[index] {
            fatalError("point \(points[index]): the batch answers \(String(describing: answer)), one call "
                + "\(String(describing: single[index]))")
        }
    }
    for index in 0..<min(places, 4) {
        guard let name = database.placeName(index) else { fatalError("place \(index) has no name") }
        _ = database.search(String(name.prefix(3)), limit: 5)
    }
    _ = database.search("a")
}

/// Fixed points (poles, the antimeridian, values that are not coordinates), and the centre and two corners of
/// the first grid cells the file sets: where the file's data is.
private func queryPoints(_ setCells: [Int]) -> [(latitude: Double, longitude: Double)] {
    var points: [(latitude: Double, longitude: Double)] = [
        (10.12, 10.08), (10.45, 10.55), (10.02, 10.95), (-45, 170), (90, 0), (-90, 180), (0, -180), (0, 180),
        (89.999, -179.999), (.nan, 0), (0, .infinity), (91, 0), (0, 540),
    ]
    for cell in setCells.prefix(16) {
        let south = -90 + Double(cell / 720) * 0.5, west = -180 + Double(cell % 720) * 0.5
        points.append((south + 0.25, west + 0.25))
        points.append((south, west))
        points.append((south + 0.4999, west + 0.0001))
    }
    return points
}

/// The sections of a section-list input, and the grid cells its GRID pairs set to something other than 0.
private func parseSections(_ input: UnsafeBufferPointer<UInt8>) -> (list: [(tag: [UInt8], bytes: [UInt8])], setCells: [Int]) {
    var sections: [(tag: [UInt8], bytes: [UInt8])] = []
    var setCells: [Int] = []
    var position = 0
    while input.count - position >= 8 {
        let tag = Array(input[position..<(position + 4)])
        let declared = Int(UInt32(input[position + 4]) | UInt32(input[position + 5]) << 8
            | UInt32(input[position + 6]) << 16 | UInt32(input[position + 7]) << 24)
        position += 8
        let length = min(declared, input.count - position)
        var bytes = Array(input[position..<(position + length)])
        position += length
        if tag == Array("GRID".utf8) { (bytes, setCells) = expandGrid(bytes) }
        if tag == Array("NRCL".utf8) { bytes = expandCellFirst(bytes) }
        sections.append((tag, bytes))
    }
    return (sections, setCells)
}

/// GRID from (cell, entry) pairs: every other cell 0 (open sea); and the cells set to something else.
private func expandGrid(_ pairs: [UInt8]) -> (grid: [UInt8], setCells: [Int]) {
    var grid = [UInt8](repeating: 0, count: 4 * gridCells)
    var setCells: [Int] = []
    for pair in stride(from: 0, to: pairs.count - 7, by: 8) {
        let cell = Int(le32(pairs, pair)) % gridCells
        grid.replaceSubrange((4 * cell)..<(4 * cell + 4), with: pairs[(pair + 4)..<(pair + 8)])
        if le32(pairs, pair + 4) != 0 { setCells.append(cell) }
    }
    return (grid, setCells)
}

/// NRCL from (cell, first root) pairs: each value holds from its cell to the next pair's (cells + 1 words).
private func expandCellFirst(_ pairs: [UInt8]) -> [UInt8] {
    var steps: [(cell: Int, value: UInt32)] = []
    for pair in stride(from: 0, to: pairs.count - 7, by: 8) {
        steps.append((Int(le32(pairs, pair)) % (gridCells + 1), le32(pairs, pair + 4)))
    }
    steps.sort { $0.cell < $1.cell }
    var words = [UInt32](repeating: 0, count: gridCells + 1)
    for (index, step) in steps.enumerated() {
        let end = index + 1 < steps.count ? steps[index + 1].cell : words.count
        for cell in step.cell..<end { words[cell] = step.value }
    }
    return words.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
}

/// A version-2 file: header, directory, then each section on an 8-byte boundary.
private func fileBytes(_ sections: [(tag: [UInt8], bytes: [UInt8])]) -> [UInt8] {
    var header = Array("CLPLACES".utf8) + bytes(UInt32(2)) + bytes(UInt32(sections.count))
    var body: [UInt8] = []
    let start = (16 + 24 * sections.count + 7) & ~7
    for (tag, data) in sections {
        header += tag + bytes(UInt32(0)) + bytes(UInt64(start + body.count)) + bytes(UInt64(data.count))
        body += data
        body += [UInt8](repeating: 0, count: (8 - body.count % 8) % 8)
    }
    header += [UInt8](repeating: 0, count: start - header.count)
    return header + body
}

/// Replaces the file's contents in place (no temporary file and rename: a run writes one every time).
private func write(_ bytes: [UInt8], to path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { fatalError("cannot open \(path): errno \(errno)") }
    defer { close(descriptor) }
    let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else { fatalError("cannot write \(path): errno \(errno)") }
}

private func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    return (0...(haystack.count - needle.count)).contains { start in
        needle.indices.allSatisfy { haystack[start + $0] == needle[$0] }
    }
}

private func bytes<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian, Array.init)
}

private func le32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
}
