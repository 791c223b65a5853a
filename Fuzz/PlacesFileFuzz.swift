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
// finite, when the batch answers a point one call refuses (or the reverse), or — for a file without
// nearest-place candidates, where both take the same path — when the batch and one call a point
// disagree. fatalError, not precondition, so that -O builds print what broke.

import Foundation
import LocationPlaces

private let gridCells = 720 * 360
/// The file every run writes and opens ($TMPDIR: scripts/fuzz-places.sh gives it a folder it removes).
private let scratchPath = NSTemporaryDirectory() + "/places-fuzz-\(getpid()).bin"

@_cdecl("LLVMFuzzerTestOneInput")
public func placesFileFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    let setCells: [Int]
    let mayHaveCandidates: Bool
    let file = ScratchFile(path: scratchPath)
    if input.starts(with: Array("CLPLACES".utf8)) {
        file.write(UnsafeRawBufferPointer(input), at: 0)
        setCells = []
        mayHaveCandidates = input.firstRange(of: Array("NRCL".utf8)) != nil
    } else {
        let sections = parseSections(input)
        writeFile(sections, to: file)
        setCells = sections.lazy.filter { $0.tag == Array("GRID".utf8) }.flatMap { setGridCells($0.bytes) }
        mayHaveCandidates = sections.contains { $0.tag == Array("NRCL".utf8) }
    }
    file.close()
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
    // With candidates the batch reads the file's trees and inside leaves (NRND, NRCA, NRIN), which one call does
    // not: it must still answer every point one call answers, with finite coordinates, and without crashing.
    let batch = database.reverseGeocode(points)
    for (index, answer) in batch.enumerated() {
        if (answer == nil) != (single[index] == nil) || (batchMustAgree && answer != single[index]) {
            fatalError("point \(points[index]): the batch answers \(String(describing: answer)), one call "
                + "\(String(describing: single[index]))")
        }
        if let answer, !answer.latitude.isFinite || !answer.longitude.isFinite {
            fatalError("a batch answer at a coordinate that is not finite: \(answer)")
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

/// One section of a section-list input.
private struct Section {
    var tag: [UInt8]
    var bytes: [UInt8]

    /// GRID and NRCL come as (cell, value) pairs and are written with an entry for every cell.
    var isSparse: Bool { tag == Array("GRID".utf8) || tag == Array("NRCL".utf8) }

    /// The section's length in the file.
    var length: Int {
        if tag == Array("GRID".utf8) { return 4 * gridCells }
        if tag == Array("NRCL".utf8) { return 4 * (gridCells + 1) }
        return bytes.count
    }
}

private func parseSections(_ input: UnsafeBufferPointer<UInt8>) -> [Section] {
    var sections: [Section] = []
    var position = 0
    while input.count - position >= 8 {
        let tag = Array(input[position..<(position + 4)])
        let declared = Int(UInt32(input[position + 4]) | UInt32(input[position + 5]) << 8
            | UInt32(input[position + 6]) << 16 | UInt32(input[position + 7]) << 24)
        position += 8
        let length = min(declared, input.count - position)
        sections.append(Section(tag: tag, bytes: Array(input[position..<(position + length)])))
        position += length
    }
    return sections
}

/// The (cell, value) pairs of a sparse section, cells reduced modulo `cells`.
private func pairs(_ bytes: [UInt8], cells: Int) -> [(cell: Int, value: UInt32)] {
    stride(from: 0, to: bytes.count - 7, by: 8).map { (Int(le32(bytes, $0)) % cells, le32(bytes, $0 + 4)) }
}

/// The cells a GRID's pairs set to something other than 0 (open sea).
private func setGridCells(_ bytes: [UInt8]) -> [Int] {
    pairs(bytes, cells: gridCells).filter { $0.value != 0 }.map(\.cell)
}

/// One buffer of a word per grid cell (and one more), reused: a run writes two such tables, and allocating
/// megabytes a run under AddressSanitizer cost more than the code under test.
nonisolated(unsafe) private var cellWords = [UInt32](repeating: 0, count: gridCells + 1)

/// Calls `body` with the section as written: GRID from (cell, entry) pairs, each pair setting its cell and every
/// other cell 0 (open sea); NRCL from (cell, first root) pairs, each value holding from its cell to the next pair's.
private func withExpanded(_ section: Section, _ body: (UnsafeRawBufferPointer) -> Void) {
    let count = section.length / 4
    let steps = pairs(section.bytes, cells: count).sorted { $0.cell < $1.cell }
    cellWords.withUnsafeMutableBufferPointer { words in
        words.update(repeating: 0)
        if section.tag == Array("GRID".utf8) {
            for step in steps { words[step.cell] = step.value.littleEndian }
        } else {
            for (index, step) in steps.enumerated() {
                let end = index + 1 < steps.count ? steps[index + 1].cell : count
                for cell in step.cell..<end { words[cell] = step.value.littleEndian }
            }
        }
        body(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(words).prefix(4 * count)))
    }
}

/// A version-2 file: header, directory, then each section on an 8-byte boundary (the gaps are holes: zeros).
private func writeFile(_ sections: [Section], to file: ScratchFile) {
    var header = Array("CLPLACES".utf8) + bytes(UInt32(2)) + bytes(UInt32(sections.count))
    var offset = (16 + 24 * sections.count + 7) & ~7
    for section in sections {
        header += section.tag + bytes(UInt32(0)) + bytes(UInt64(offset)) + bytes(UInt64(section.length))
        if section.isSparse {
            withExpanded(section) { file.write($0, at: offset) }
        } else {
            section.bytes.withUnsafeBytes { file.write($0, at: offset) }
        }
        offset = (offset + section.length + 7) & ~7
    }
    header.withUnsafeBytes { file.write($0, at: 0) }
}

/// The file each run writes, emptied first (no temporary file and rename: a run writes one every time).
private struct ScratchFile {
    let path: String
    let descriptor: Int32

    init(path: String) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { fatalError("cannot open \(path): errno \(errno)") }
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        guard pwrite(descriptor, bytes.baseAddress, bytes.count, off_t(offset)) == bytes.count else {
            fatalError("cannot write \(path): errno \(errno)")
        }
    }

    func close() { _ = Glibc.close(descriptor) }
}

private func bytes<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian, Array.init)
}

private func le32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
}
