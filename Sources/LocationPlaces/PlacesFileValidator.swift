/// Opens `places.bin` and checks every cross-reference once, so that queries can read with unchecked
/// loads: string references and their lengths inside `STRS`; country, subdivision, time-zone and place
/// indexes in range; grid entries → `CELL` → `PART` → `LINE` → `PNTS`; country place ranges inside
/// `PLCE`; k-d split axes ≤ 2. A linear pass over ~1.3 million small records: a few milliseconds.
///
/// In steps, so that opening can check and build at once (`PlacesDatabase.init`): `map` checks the header
/// and every section's size, after which reading record `i` of a section, `i` below its count, stays inside
/// the file; `checkRecords`, `checkNameIndex` and `checkBoundaries` then check the references between
/// records, and nothing may follow a reference before the check that covers it.
enum PlacesFileValidator {
    /// The file mapped, its directory and sizes checked, and the nearest-place candidates' index checked;
    /// the other references between records not yet (`checkRecords`, `checkNameIndex`, `checkBoundaries`).
    static func map(path: String) throws(PlacesDatabaseError) -> PlacesTables {
        let file = try MappedFile(path: path)
        let directory = try PlacesFileDirectory(file: file, path: path)
        let strings = directory.bytes("STRS")
        let (countries, countryCount) = directory.records("CTRY", size: 16)
        let (timeZones, timeZoneCount) = directory.records("TZNS", size: 4)
        let (subdivisions, subdivisionCount) = directory.records("ADM1", size: 8)
        let (secondLevel, secondLevelCount) = directory.records("ADM2", size: 8)
        let (places, placeCount) = directory.records("PLCE", size: 32)
        let (placeSecondLevel, placeSecondLevelCount) = directory.records("PAD2", size: 2)
        let (names, nameCount) = directory.records("NIDX", size: 8)
        let (grid, gridCount) = directory.records("GRID", size: 4)
        let (cells, cellCount) = directory.records("CELL", size: 8)
        let (parts, partCount) = directory.records("PART", size: 12)
        let (lines, lineCount) = directory.records("LINE", size: 8)
        let (points, pointCount) = directory.records("PNTS", size: 4)

        func corrupt(_ reason: String) -> PlacesDatabaseError { .corrupt(path: path, reason: reason) }

        let cellsInGrid = PlacesTables.gridRows * PlacesTables.gridColumns
        guard gridCount == cellsInGrid else {
            throw corrupt("GRID has \(gridCount) entries, not \(cellsInGrid) (720 × 360)")
        }
        // u16 indexes use 0xFFFF for "none", so a table they index holds fewer than 65,535 records.
        guard placeSecondLevelCount == placeCount else {
            throw corrupt("PAD2 has \(placeSecondLevelCount) entries for \(placeCount) places")
        }
        for (tag, count) in [("CTRY", countryCount), ("TZNS", timeZoneCount), ("ADM1", subdivisionCount),
                             ("ADM2", secondLevelCount)]
        where count >= Int(PlacesTables.none16) {
            throw corrupt("section \(tag) has \(count) records, more than a 16-bit index can reach")
        }

        var tables = PlacesTables(
            file: file, metadata: directory.bytes("META"),
            strings: strings.baseAddress!, stringsLength: strings.count,
            countries: countries, countryCount: countryCount, timeZones: timeZones, timeZoneCount: timeZoneCount,
            subdivisions: subdivisions, subdivisionCount: subdivisionCount,
            secondLevelSubdivisions: secondLevel, secondLevelSubdivisionCount: secondLevelCount,
            placeSecondLevel: placeSecondLevel, places: places,
            placeCount: placeCount, names: names, nameCount: nameCount, grid: grid, cells: cells,
            cellCount: cellCount, parts: parts, partCount: partCount, lines: lines, lineCount: lineCount,
            points: points, pointCount: pointCount)
        if directory.hasNearestCandidates {
            tables.nearestCandidates = try nearestCandidates(directory, countries: countryCount, corrupt: corrupt)
        }
        return tables
    }

    /// The nearest-place candidate sections' index: `NRCL` ascending inside `NRPT`, `NRPT`'s countries in
    /// range and its root words inside `NRND` or `NRCA`; `NRIN`, when present, a bit for every child of every
    /// node (any bit pattern is safe: a bit only chooses between two answers, never an address). The ~2 million words of `NRND` and `NRCA` are checked
    /// where a query reads them instead (`NearestCandidates.leaf` and `nearest`: a few compares a query, where
    /// checking them all here cost ~5 ms of the first answer's ~20): a wrong one sends that query to the k-d
    /// search, so a corrupt tree can neither crash nor loop.
    private static func nearestCandidates(
        _ directory: PlacesFileDirectory, countries: Int, corrupt: (String) -> PlacesDatabaseError
    ) throws(PlacesDatabaseError) -> NearestCandidates {
        let (cellFirst, cellWords) = directory.records("NRCL", size: 4)
        let (roots, rootCount) = directory.records("NRPT", size: 8)
        let (nodes, nodeCount) = directory.records("NRND", size: 16)
        let (candidatePlaces, candidateCount) = directory.records("NRCA", size: 2)
        let cells = PlacesTables.gridRows * PlacesTables.gridColumns
        guard cellWords == cells + 1 else { throw corrupt("NRCL has \(cellWords) entries, not \(cells + 1)") }
        var candidates = NearestCandidates(
            cellFirst: cellFirst, roots: roots, rootCount: rootCount, nodes: nodes, nodeCount: nodeCount,
            places: candidatePlaces, placeCount: candidateCount)
        if let insideLeaves = directory.insideLeaves {
            let bytes = (4 * nodeCount + 7) / 8
            guard insideLeaves.count == bytes else {
                throw corrupt("NRIN is \(insideLeaves.count) bytes, not \(bytes) (4 bits for each of \(nodeCount) nodes)")
            }
            candidates.insideLeaves = insideLeaves.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!
        }
        // Flags as integers, combined with `|`: no short-circuit, so the loops compile to selects; a wrong file
        // is read again for the precise reason.
        var wrong: UInt = 0
        var previous = 0
        for cell in 0...cells {
            let first = candidates.firstRoot(ofCell: cell)
            wrong |= (first < previous ? 1 : 0) | (first > rootCount ? 1 : 0)
            previous = first
        }
        if wrong != 0 {
            previous = 0
            for cell in 0...cells {
                let first = candidates.firstRoot(ofCell: cell)
                guard first >= previous, first <= rootCount else {
                    throw corrupt("NRCL[\(cell)] is \(first): the cells' first NRPT entries must ascend within its "
                        + "\(rootCount) entries")
                }
                previous = first
            }
        }
        for entry in 0..<rootCount {
            guard candidates.rootCountry(entry) < countries else {
                throw corrupt("NRPT[\(entry)] country is \(candidates.rootCountry(entry)), out of range "
                    + "(\(countries) records)")
            }
            let word = candidates.rootWord(entry)
            if word & NearestCandidates.leafBit == 0 {
                guard Int(word) < nodeCount else {
                    throw corrupt("NRPT[\(entry)] points to node \(word), outside NRND (\(nodeCount) nodes)")
                }
            } else {
                let count = Int(word >> 28) & 7, first = Int(word & NearestCandidates.firstMask)
                guard count == NearestCandidates.searchCount || first + count <= candidateCount else {
                    throw corrupt("NRPT[\(entry)] lists candidates [\(first) ..< \(first) + \(count)] outside NRCA "
                        + "(\(candidateCount) entries)")
                }
            }
        }
        return candidates
    }

    /// The references of the countries, zones, subdivisions and places.
    static func checkRecords(_ t: PlacesTables, path: String) throws(PlacesDatabaseError) {
        let check = ReferenceChecks(tables: t, path: path)
        for c in 0..<t.countryCount {
            try check.index(Int(t.countryTimeZone(c)), below: t.timeZoneCount, optional: true, "CTRY[\(c)] time zone")
            try check.string(t.countryNameRef(c), "CTRY[\(c)] name")
            try check.range(t.countryPlaceStart(c), t.countryPlaceCount(c), within: t.placeCount, "CTRY[\(c)] places")
        }
        for z in 0..<t.timeZoneCount {
            try check.string(t.timeZoneRef(z), "TZNS[\(z)]")
        }
        for s in 0..<t.subdivisionCount {
            try check.index(t.subdivisionCountry(s), below: t.countryCount, "ADM1[\(s)] country")
            try check.string(t.subdivisionNameRef(s), "ADM1[\(s)] name")
        }
        for s in 0..<t.secondLevelSubdivisionCount {
            try check.index(t.secondLevelCountry(s), below: t.countryCount, "ADM2[\(s)] country")
            try check.string(t.secondLevelNameRef(s), "ADM2[\(s)] name")
        }
        for p in 0..<t.placeCount {
            try check.string(t.placeNameRef(p), "PLCE[\(p)] name")
            try check.index(Int(t.placeSecondLevelSubdivision(p)), below: t.secondLevelSubdivisionCount, optional: true,
                            "PAD2[\(p)]")
            let municipality = t.placeMunicipality(p)
            try check.index(municipality, below: t.placeCount, "PLCE[\(p)] municipality")
            guard t.placeMunicipality(municipality) == municipality else {
                throw check.corrupt(
                    "PLCE[\(p)] has the municipality \(municipality), which is a section of another place")
            }
            try check.index(Int(t.placeSubdivision(p)), below: t.subdivisionCount, optional: true,
                            "PLCE[\(p)] subdivision")
            try check.index(Int(t.placeTimeZone(p)), below: t.timeZoneCount, optional: true, "PLCE[\(p)] time zone")
            try check.index(t.placeCountry(p), below: t.countryCount, "PLCE[\(p)] country")
            try check.index(t.placeSplitAxis(p), below: 3, "PLCE[\(p)] split axis")
        }
    }

    /// The references of the name index (`NIDX`: forward geocoding's keys and their places).
    static func checkNameIndex(_ t: PlacesTables, path: String) throws(PlacesDatabaseError) {
        let check = ReferenceChecks(tables: t, path: path)
        for n in 0..<t.nameCount {
            try check.string(t.nameKeyRef(n), "NIDX[\(n)] key")
            try check.index(t.namePlace(n), below: t.placeCount, "NIDX[\(n)] place")
        }
    }

    /// The references of the grid and the boundaries (`CELL` → `PART` → `LINE` → `PNTS`), and that the
    /// boundaries' copy (`CellGeometry`) fits the bound it allocates by.
    static func checkBoundaries(_ t: PlacesTables, path: String) throws(PlacesDatabaseError) {
        let check = ReferenceChecks(tables: t, path: path)
        for row in 0..<PlacesTables.gridRows {
            for column in 0..<PlacesTables.gridColumns {
                let entry = t.gridEntry(row: row, column: column)
                switch entry >> 30 {
                case 0: continue
                case 1:
                    try check.index(Int(entry & 0xFFFF), below: t.countryCount,
                                    "GRID[row \(row), column \(column)] country")
                    if entry & 0x3FFF_0000 & ~PlacesTables.noPlaceInReachBit != 0 {
                        throw check.corrupt("GRID[row \(row), column \(column)] has unknown bits set")
                    }
                case 2:
                    try check.index(Int(entry & 0x3FFF_FFFF), below: t.cellCount,
                                    "GRID[row \(row), column \(column)] cell")
                default: throw check.corrupt("GRID[row \(row), column \(column)] has the unknown kind 3")
                }
            }
        }
        for c in 0..<t.cellCount {
            try check.range(t.cellFirstPart(c), t.cellPartCount(c), within: t.partCount, "CELL[\(c)] parts")
        }
        for p in 0..<t.partCount {
            try check.index(t.partCountry(p), below: t.countryCount, "PART[\(p)] country")
            try check.range(t.partFirstLine(p), t.partLineCount(p), within: t.lineCount, "PART[\(p)] lines")
        }
        for l in 0..<t.lineCount {
            guard t.linePointCount(l) >= 2 else {
                throw check.corrupt("LINE[\(l)] has \(t.linePointCount(l)) points; a line needs at least 2")
            }
            try check.range(t.lineFirstPoint(l), t.linePointCount(l), within: t.pointCount, "LINE[\(l)] points")
        }
        // What CellGeometry will copy, given up on as soon as it is more than the file holds: every part
        // and line adds words, so the count stops soon however the file shares them.
        let maximumWords = CellGeometry.maximumWords(t)
        var words = 0
        for c in 0..<t.cellCount {
            guard let cellWords = CellGeometry.words(ofCell: c, t, limit: maximumWords - words) else {
                throw check.corrupt("CELL[\(c)] and the cells before it share parts or lines: their boundaries add up to more than the file holds")
            }
            words += cellWords
        }
    }
}

/// The checks of one reference, each throwing `.corrupt` with the record it was read from.
private struct ReferenceChecks {
    let tables: PlacesTables
    let path: String

    func corrupt(_ reason: String) -> PlacesDatabaseError { .corrupt(path: path, reason: reason) }

    /// A string reference: its 2-byte length and its bytes inside `STRS`.
    func string(_ ref: UInt32, optional: Bool = false, _ what: @autoclosure () -> String) throws(PlacesDatabaseError) {
        if optional, ref == PlacesTables.none32 { return }
        let offset = Int(ref), length = tables.stringsLength
        guard offset <= length - 2, Int(PlacesTables.u16(tables.strings, offset)) <= length - offset - 2 else {
            throw corrupt("\(what()) refers to a string at \(ref) outside STRS (\(length) bytes)")
        }
    }

    /// A record index below `limit` (or, when `optional`, the 16-bit "none").
    func index(_ value: Int, below limit: Int, optional: Bool = false, _ what: @autoclosure () -> String)
        throws(PlacesDatabaseError) {
        if optional, value == Int(PlacesTables.none16) { return }
        guard value < limit else { throw corrupt("\(what()) is \(value), out of range (\(limit) records)") }
    }

    /// `count` records from `start` inside a table of `limit`.
    func range(_ start: Int, _ count: Int, within limit: Int, _ what: @autoclosure () -> String)
        throws(PlacesDatabaseError) {
        guard start <= limit, count <= limit - start else {
            throw corrupt("\(what()) [\(start) ..< \(start) + \(count)] is outside its table (\(limit) records)")
        }
    }
}
