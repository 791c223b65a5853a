/// Typed, unchecked views of the sections of a mapped `places.bin` (docs/places-database.md).
///
/// Every accessor is a plain load at a computed offset with no bounds check: `PlacesFileValidator` has
/// checked every count, reference and index once at open, so the query paths can stay branch-free.
/// Integers are little-endian in the file; the `littleEndian:` initialisers are no-ops on the hosts we
/// build for.
struct PlacesTables: @unchecked Sendable {
    /// Keeps the mapping alive as long as any view of it.
    let file: MappedFile

    let metadata: UnsafeRawBufferPointer
    let strings: UnsafeRawPointer
    let stringsLength: Int
    let countries: UnsafeRawPointer
    let countryCount: Int
    let timeZones: UnsafeRawPointer
    let timeZoneCount: Int
    let subdivisions: UnsafeRawPointer
    let subdivisionCount: Int
    let secondLevelSubdivisions: UnsafeRawPointer
    let secondLevelSubdivisionCount: Int
    /// `PAD2`: per place, its `ADM2` index (2 B).
    let placeSecondLevel: UnsafeRawPointer
    let places: UnsafeRawPointer
    let placeCount: Int
    let names: UnsafeRawPointer
    let nameCount: Int
    let grid: UnsafeRawPointer
    let cells: UnsafeRawPointer
    let cellCount: Int
    let parts: UnsafeRawPointer
    let partCount: Int
    let lines: UnsafeRawPointer
    let lineCount: Int
    let points: UnsafeRawPointer
    let pointCount: Int
    /// The optional nearest-place candidates, validated (`nil` when the file has none).
    var nearestCandidates: NearestCandidates? = nil

    static let none16: UInt16 = 0xFFFF
    static let none32: UInt32 = 0xFFFF_FFFF
    static let gridColumns = 720
    static let gridRows = 360
    static let cellDegrees = 0.5

    // MARK: Loads

    @inline(__always) static func u8(_ base: UnsafeRawPointer, _ offset: Int) -> UInt8 {
        base.load(fromByteOffset: offset, as: UInt8.self)
    }

    @inline(__always) static func u16(_ base: UnsafeRawPointer, _ offset: Int) -> UInt16 {
        UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inline(__always) static func u32(_ base: UnsafeRawPointer, _ offset: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inline(__always) static func f32(_ base: UnsafeRawPointer, _ offset: Int) -> Float {
        Float(bitPattern: u32(base, offset))
    }

    // MARK: STRS

    /// The UTF-8 bytes of the string at `ref` (not `none32`).
    @inline(__always) func stringBytes(_ ref: UInt32) -> UnsafeRawBufferPointer {
        let offset = Int(ref)
        let length = Int(Self.u16(strings, offset))
        return UnsafeRawBufferPointer(start: strings + offset + 2, count: length)
    }

    /// The string at `ref`, decoded from the mapped bytes (invalid UTF-8 is repaired, never trusted).
    func string(_ ref: UInt32) -> String {
        String(decoding: stringBytes(ref), as: UTF8.self)
    }

    // MARK: CTRY (16 B)

    func countryCode(_ country: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: countries + country * 16, count: 2), as: UTF8.self)
    }

    @inline(__always) func countryTimeZone(_ country: Int) -> UInt16 { Self.u16(countries, country * 16 + 2) }
    @inline(__always) func countryNameRef(_ country: Int) -> UInt32 { Self.u32(countries, country * 16 + 4) }
    @inline(__always) func countryPlaceStart(_ country: Int) -> Int { Int(Self.u32(countries, country * 16 + 8)) }
    @inline(__always) func countryPlaceCount(_ country: Int) -> Int { Int(Self.u32(countries, country * 16 + 12)) }

    // MARK: TZNS (4 B), ADM1 (8 B)

    @inline(__always) func timeZoneRef(_ zone: Int) -> UInt32 { Self.u32(timeZones, zone * 4) }
    @inline(__always) func subdivisionCountry(_ subdivision: Int) -> Int { Int(Self.u16(subdivisions, subdivision * 8)) }
    @inline(__always) func subdivisionNameRef(_ subdivision: Int) -> UInt32 { Self.u32(subdivisions, subdivision * 8 + 4) }

    // MARK: ADM2 (8 B), PAD2 (2 B a place)

    @inline(__always) func secondLevelCountry(_ subdivision: Int) -> Int { Int(Self.u16(secondLevelSubdivisions, subdivision * 8)) }
    @inline(__always) func secondLevelNameRef(_ subdivision: Int) -> UInt32 { Self.u32(secondLevelSubdivisions, subdivision * 8 + 4) }
    /// The place's second-level subdivision (index into `ADM2`, or `none16`).
    @inline(__always) func placeSecondLevelSubdivision(_ place: Int) -> UInt16 { Self.u16(placeSecondLevel, place * 2) }

    // MARK: PLCE (32 B): the k-d vector and split axis first, then what an answer needs, so the place the
    // search ends on has its record in the cache line the search just read.

    @inline(__always) func vector(_ place: Int) -> SIMD3<Float> {
        let offset = place * 32
        return SIMD3(Self.f32(places, offset), Self.f32(places, offset + 4), Self.f32(places, offset + 8))
    }

    @inline(__always) func placeSplitAxis(_ place: Int) -> Int { Int(Self.u8(places, place * 32 + 12)) }
    @inline(__always) func placeSubdivision(_ place: Int) -> UInt16 { Self.u16(places, place * 32 + 14) }
    @inline(__always) func placePopulation(_ place: Int) -> UInt32 { Self.u32(places, place * 32 + 16) }
    @inline(__always) func placeNameRef(_ place: Int) -> UInt32 { Self.u32(places, place * 32 + 20) }
    @inline(__always) func placeTimeZone(_ place: Int) -> UInt16 { Self.u16(places, place * 32 + 24) }
    @inline(__always) func placeCountry(_ place: Int) -> Int { Int(Self.u16(places, place * 32 + 26)) }
    /// The place's municipality (a `PLCE` index; the place itself when it is one). The validator has
    /// checked that a municipality is its own, so one hop always ends on a municipality.
    @inline(__always) func placeMunicipality(_ place: Int) -> Int { Int(Self.u32(places, place * 32 + 28)) }

    // MARK: NIDX (8 B)

    @inline(__always) func nameKeyRef(_ entry: Int) -> UInt32 { Self.u32(names, entry * 8) }
    @inline(__always) func namePlace(_ entry: Int) -> Int { Int(Self.u32(names, entry * 8 + 4)) }

    // MARK: GRID (4 B), CELL (8 B), PART (12 B), LINE (8 B), PNTS (4 B)

    /// Set on a whole-country GRID entry (kind 1) when no place of the country's k-d range lies within
    /// 50 km (`PlacesDatabase.localityRange`) of any point of the cell.
    static let noPlaceInReachBit: UInt32 = 1 << 16

    @inline(__always) func gridEntry(row: Int, column: Int) -> UInt32 {
        Self.gridEntry(grid, row: row, column: column)
    }

    /// Entry (`row`, `column`) of the `GRID` section at `grid`.
    @inline(__always) static func gridEntry(_ grid: UnsafeRawPointer, row: Int, column: Int) -> UInt32 {
        u32(grid, (row * gridColumns + column) * 4)
    }

    @inline(__always) func cellFirstPart(_ cell: Int) -> Int { Int(Self.u32(cells, cell * 8)) }
    @inline(__always) func cellPartCount(_ cell: Int) -> Int { Int(Self.u16(cells, cell * 8 + 4)) }
    /// Bit `4 × row + column` of the cell's 4×4 sub-cells: no boundary within the territorial distance.
    @inline(__always) func cellFarMask(_ cell: Int) -> UInt16 { Self.u16(cells, cell * 8 + 6) }
    @inline(__always) func partCountry(_ part: Int) -> Int { Int(Self.u16(parts, part * 12)) }
    /// Bit `4 × row + column`: that sub-cell's centre lies in the part's country.
    @inline(__always) func partInsideMask(_ part: Int) -> UInt16 { Self.u16(parts, part * 12 + 2) }
    @inline(__always) func partFirstLine(_ part: Int) -> Int { Int(Self.u32(parts, part * 12 + 4)) }
    @inline(__always) func partLineCount(_ part: Int) -> Int { Int(Self.u32(parts, part * 12 + 8)) }
    @inline(__always) func lineFirstPoint(_ line: Int) -> Int { Int(Self.u32(lines, line * 8)) }
    @inline(__always) func linePointCount(_ line: Int) -> Int { Int(Self.u32(lines, line * 8 + 4)) }

    /// A boundary point as fractions (0…65535) of its cell's width and height.
    @inline(__always) func point(_ index: Int) -> (x: UInt16, y: UInt16) {
        (Self.u16(points, index * 4), Self.u16(points, index * 4 + 2))
    }
}
