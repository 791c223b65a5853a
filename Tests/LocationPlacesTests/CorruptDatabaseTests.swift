import FoundationEssentials
import Testing
@testable import LocationPlaces
import SeededRandom
import TestSupport

/// Files that are not valid places databases give `.corrupt`/`.unsupportedVersion` with a precise reason,
/// never a crash; the crafted files come from `PlacesFileBuilder`.
@Suite struct CorruptDatabaseTests {
    private func expectCorrupt(_ bytes: [UInt8], mentioning words: [String],
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try errorOpening(bytes)
        guard case .corrupt(_, let reason)? = error else {
            Issue.record("expected .corrupt, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        for word in words {
            #expect(reason.contains(word), "reason \"\(reason)\" does not mention \(word)", sourceLocation: sourceLocation)
        }
    }

    @Test func theMinimalFileOpensAndAnswers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(PlacesFileBuilder.minimal().bytes(), named: "places.bin")
        let database = try PlacesDatabase.open(path: path)
        let place = try #require(database.reverseGeocode(latitude: 10.12, longitude: 10.08))
        #expect(place.locality == "Alpha")
        #expect(place.administrativeArea == "North Region")
        #expect(place.isoCountryCode == "TL")
        #expect(place.country == "Testland")
        #expect(place.timeZoneIdentifier == "Etc/UTC")
        // The mixed cell east of it: north-west of its line is Testland, land.
        #expect(database.polygonCountryCode(latitude: 10.45, longitude: 10.55) == "TL")
        #expect(database.reverseLookup(latitude: 10.45, longitude: 10.55)?.surface == .land)
        // Half a kilometre south of the line: the polygons' resolution, still land (but 71 km from Alpha).
        let nearLine = try #require(database.reverseLookup(latitude: 10.12, longitude: 10.75))
        #expect(nearLine == ReverseHit(surface: .land, polygonCountry: 0, place: nil, water: nil))
        // ~20 km south of it: Testland's territorial sea.
        let offshore = try #require(database.reverseGeocode(latitude: 10.02, longitude: 10.95))
        #expect(offshore.isoCountryCode == "TL")
        #expect(offshore.locality == nil)
        #expect(offshore.ocean == "Atlantic Ocean")
        #expect(database.reverseLookup(latitude: 10.02, longitude: 10.95)?.surface == .territorialSea)
        // Far from any coast.
        #expect(database.reverseLookup(latitude: -45, longitude: 170)?.surface == .sea)
        #expect(database.search("Alpha").first?.locality == "Alpha")
        #expect(database.metadataJSON == #"{"test": true}"#)
    }

    @Test func aZeroLengthFileIsCorrupt() throws {
        try expectCorrupt([], mentioning: ["0 bytes", "header"])
    }

    @Test func aFileShorterThanTheHeaderIsCorrupt() throws {
        try expectCorrupt(Array("CLPLAC".utf8), mentioning: ["6 bytes"])
    }

    @Test func wrongMagicIsCorrupt() throws {
        var bytes = PlacesFileBuilder.minimal().bytes()
        bytes[0] = UInt8(ascii: "X")
        try expectCorrupt(bytes, mentioning: ["magic"])
    }

    @Test func aFutureVersionIsUnsupported() throws {
        var builder = PlacesFileBuilder.minimal()
        builder.version = 3
        let error = try errorOpening(builder.bytes())
        guard case .unsupportedVersion(_, 3)? = error else {
            Issue.record("expected .unsupportedVersion(3), got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("version 3") == true)
    }

    /// Version 1 kept no municipalities: its reserved bytes would make every place the first one's district.
    @Test func versionOneIsUnsupported() throws {
        var builder = PlacesFileBuilder.minimal()
        builder.version = 1
        guard case .unsupportedVersion(_, 1)? = try errorOpening(builder.bytes()) else {
            Issue.record("expected .unsupportedVersion(1)")
            return
        }
    }

    @Test func secondLevelSubdivisionsForEveryPlace() throws {
        var builder = PlacesFileBuilder.minimal()
        builder.replace("PAD2", with: le16(0) + le16(0))
        try expectCorrupt(builder.bytes(), mentioning: ["PAD2 has 2 entries for 1 places"])
    }

    @Test func aDirectoryLongerThanTheFileIsCorrupt() throws {
        var bytes = PlacesFileBuilder.minimal().bytes()
        bytes.replaceSubrange(12..<16, with: le32(1_000_000))
        try expectCorrupt(bytes, mentioning: ["directory", "1000000"])
    }

    @Test func aSectionPastTheEndIsCorrupt() throws {
        let builder = PlacesFileBuilder.minimal()
        var bytes = builder.bytes()
        let plce = builder.sections.firstIndex { $0.tag == "PLCE" }!
        bytes.replaceSubrange((16 + 24 * plce + 16)..<(16 + 24 * plce + 24), with: le64(UInt64(bytes.count)))
        try expectCorrupt(bytes, mentioning: ["section PLCE extends past the end of the file", "file size \(bytes.count)"])
    }

    @Test func everyTruncationIsCorrupt() throws {
        let bytes = PlacesFileBuilder.minimal().bytes()
        // Every cut through the header and directory, then a spread of cuts through the sections.
        let cuts = Array(0..<(16 + 24 * 13 + 8)) + Array(stride(from: 400, to: bytes.count, by: 4099)) + [bytes.count - 1]
        for cut in cuts {
            let error = try errorOpening(Array(bytes[..<cut]))
            guard case .corrupt? = error else {
                Issue.record("a file cut at \(cut) of \(bytes.count) bytes gave \(String(describing: error))")
                continue
            }
        }
    }

    @Test func aMissingSectionIsCorrupt() throws {
        var builder = PlacesFileBuilder.minimal()
        builder.sections.removeAll { $0.tag == "NIDX" }
        try expectCorrupt(builder.bytes(), mentioning: ["NIDX", "missing"])
    }

    @Test func aRepeatedSectionIsCorrupt() throws {
        var builder = PlacesFileBuilder.minimal()
        builder.sections.append(("CTRY", builder.sections[2].bytes))
        try expectCorrupt(builder.bytes(), mentioning: ["CTRY", "twice"])
    }

    @Test func unknownSectionsAreIgnored() throws {
        var builder = PlacesFileBuilder.minimal()
        builder.sections.append(("XTRA", [1, 2, 3]))
        #expect(try errorOpening(builder.bytes()) == nil)
    }

    @Test func aLengthThatIsNotWholeRecordsIsCorrupt() throws {
        var builder = PlacesFileBuilder.minimal()
        let plce = builder.sections.firstIndex { $0.tag == "PLCE" }!
        builder.replace("PLCE", with: builder.sections[plce].bytes + [0, 0, 0])
        try expectCorrupt(builder.bytes(), mentioning: ["PLCE", "35 bytes", "32-byte records"])
    }

    @Test func aWrongGridSizeIsCorrupt() throws {
        var builder = PlacesFileBuilder.minimal()
        builder.replace("GRID", with: [UInt8](repeating: 0, count: 720 * 4))
        try expectCorrupt(builder.bytes(), mentioning: ["GRID", "720"])
    }

    @Test func aStringReferenceOutsideStringsIsCorrupt() throws {
        var builder = PlacesFileBuilder.minimal()
        builder.patch("PLCE", at: 20, le32(5_000))
        try expectCorrupt(builder.bytes(), mentioning: ["PLCE[0] name", "outside STRS"])
    }

    @Test func aStringLengthRunningPastStringsIsCorrupt() throws {
        var builder = PlacesFileBuilder.minimal()
        builder.patch("STRS", at: 0, le16(60_000))  // "Testland", CTRY[0]'s name
        try expectCorrupt(builder.bytes(), mentioning: ["CTRY[0] name", "outside STRS"])
    }

    @Test(arguments: [
        ("PLCE", 26, le16(7), "PLCE[0] country"),
        ("PLCE", 14, le16(3), "PLCE[0] subdivision"),
        ("PLCE", 24, le16(9), "PLCE[0] time zone"),
        ("PLCE", 12, [3], "PLCE[0] split axis"),
        ("PLCE", 28, le32(1), "PLCE[0] municipality"),
        ("PAD2", 0, le16(1), "PAD2[0]"),
        ("ADM2", 0, le16(1), "ADM2[0] country"),
        ("ADM1", 0, le16(1), "ADM1[0] country"),
        ("CTRY", 12, le32(2), "CTRY[0] places"),
        ("CTRY", 8, le32(0xFFFF_FFFF), "CTRY[0] places"),
        ("NIDX", 4, le32(1), "NIDX[0] place"),
        ("CELL", 4, le32(2), "CELL[0] parts"),
        ("PART", 0, le16(1), "PART[0] country"),
        ("PART", 8, le32(5), "PART[0] lines"),
        ("LINE", 4, le32(3), "LINE[0] points"),
        ("LINE", 4, le32(1), "LINE[0] has 1 points"),
    ] as [(String, Int, [UInt8], String)])
    func anIndexOutOfRangeIsCorrupt(tag: String, offset: Int, value: [UInt8], reason: String) throws {
        var builder = PlacesFileBuilder.minimal()
        builder.patch(tag, at: offset, value)
        try expectCorrupt(builder.bytes(), mentioning: [reason])
    }

    /// Opening checks the records and the boundaries on two threads; a file wrong in both is reported by its
    /// records, as when the checks ran one after the other.
    @Test func aFileWrongInItsRecordsAndItsBoundariesIsReportedByItsRecords() throws {
        var builder = PlacesFileBuilder.minimal()
        builder.patch("PLCE", at: 26, le16(7))
        builder.patch("PART", at: 0, le16(1))
        try expectCorrupt(builder.bytes(), mentioning: ["PLCE[0] country"])
    }

    @Test func aGridEntryOutOfRangeIsCorrupt() throws {
        var builder = PlacesFileBuilder.minimal()
        builder.patch("GRID", at: 0, le32((2 << 30) | 5))
        try expectCorrupt(builder.bytes(), mentioning: ["GRID[row 0, column 0] cell"])
        builder.patch("GRID", at: 0, le32(3 << 30))
        try expectCorrupt(builder.bytes(), mentioning: ["unknown kind 3"])
    }

    @Test func unknownBitsInACountryCellAreCorrupt() throws {
        var builder = PlacesFileBuilder.minimal()
        builder.patch("GRID", at: 0, le32((1 << 30) | (1 << 16)))  // "no place in reach": known
        #expect(try errorOpening(builder.bytes()) == nil)
        builder.patch("GRID", at: 0, le32((1 << 30) | (1 << 17)))
        try expectCorrupt(builder.bytes(), mentioning: ["GRID[row 0, column 0]", "unknown bits"])
    }

    /// The format lets cells share parts and parts share lines; the reader copies each cell's boundaries,
    /// so sharing could multiply memory without bound. A file whose copy would exceed what it holds is
    /// refused at open, before anything is allocated.
    @Test func cellsSharingBoundariesBeyondTheFileAreCorrupt() throws {
        var builder = PlacesFileBuilder.minimal()
        let cell = le32(0) + le16(1) + le16(0)
        builder.replace("CELL", with: cell + cell + cell)
        try expectCorrupt(builder.bytes(), mentioning: ["share parts or lines"])
    }

    @Test func randomGarbageIsCorrupt() throws {
        var generator = SplitMix64(seed: 7)
        for length in [1, 15, 16, 17, 100, 4096, 70_000] {
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(try errorOpening(bytes) != nil)
            // Garbage behind a valid magic and version.
            if length >= 16 {
                bytes.replaceSubrange(0..<12, with: Array("CLPLACES".utf8) + le32(PlacesFileDirectory.version))
                let error = try errorOpening(bytes)
                guard case .corrupt? = error else {
                    Issue.record("garbage of \(length) bytes behind a valid header gave \(String(describing: error))")
                    continue
                }
            }
        }
    }

    /// Flipped bytes anywhere: the file is refused, or it opens and every kind of query still answers
    /// without crashing (validation keeps every read in bounds). Both outcomes must occur, and queries
    /// on opened files must find something, or the trials checked nothing.
    @Test func flippedBytesNeverCrashAQuery() throws {
        let valid = PlacesFileBuilder.minimal()
        let bytes = valid.bytes()
        // The interesting bytes: header, directory and every section but the grid's zeros.
        let grid = valid.offset(of: "GRID")
        let interesting = Array(0..<grid) + Array((grid + 720 * 360 * 4)..<bytes.count)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var generator = SplitMix64(seed: 11)
        var refused = 0, opened = 0, answered = 0
        for trial in 0..<300 {
            var broken = bytes
            for _ in 0..<3 {
                broken[interesting.randomElement(using: &generator)!] = UInt8.random(in: 0...255, using: &generator)
            }
            let path = try directory.write(broken, named: "broken-\(trial).bin")
            let database: PlacesDatabase
            do {
                database = try PlacesDatabase.open(path: path)
            } catch {
                refused += 1
                continue
            }
            opened += 1
            var found = 0
            for (latitude, longitude) in [(10.1, 10.1), (10.2, 10.7), (10.49, 10.51), (0, 0), (-45, 170)] {
                if database.reverseGeocode(latitude: latitude, longitude: longitude) != nil { found += 1 }
            }
            found += database.search("alpha").count
            found += database.search("al", preferring: SearchRegion(latitude: 10, longitude: 10, radius: 1000)).count
            if found > 0 { answered += 1 }
        }
        #expect(refused > 0, "no mutation was refused: validation checked nothing")
        #expect(opened > 0, "every mutation was refused: no query ran")
        #expect(answered > 0, "no opened file answered a query (\(opened) opened, \(refused) refused)")
    }

    @Test func aMissingFileIsMissingAndADirectoryIsUnreadable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.url.appendingPathComponent("absent.bin").path
        #expect(throws: PlacesDatabaseError.missing(searched: [missing])) { try PlacesDatabase.open(path: missing) }
        do {
            _ = try PlacesDatabase.open(path: directory.url.path)
            Issue.record("a directory opened as a database")
        } catch {
            guard case .unreadable(_, let reason) = error else {
                Issue.record("expected .unreadable, got \(error)")
                return
            }
            #expect(reason.contains("not a regular file"))
        }
    }
}
