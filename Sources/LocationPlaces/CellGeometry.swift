/// Each mixed cell's boundaries in one contiguous run of 16-bit words, built at open from `CELL`, `PART`,
/// `LINE` and `PNTS` (~4 MB, a few milliseconds). In the file a query walks five tables at random
/// (part, line, chunk, box, points), a cache miss each; here a cell is a few neighbouring cache lines
/// read front to back.
///
/// Per cell an 8-byte header (where its words start, `farMask`, `partCount`: one load answers a cell far
/// from its boundaries). A cell's words: per part `country`, `insideMask` and where its chunks start (a
/// 32-bit word offset from the cell's first word, low half first), then the chunks: each line cut
/// into runs of at most `chunkSegments` segments (neighbouring runs share an end point), each run as
/// `minX, minY, maxX, maxY, pointCount` and its points `x, y` in the cell's 1/65535 units. A part's chunks
/// end where the next part's start (the last part's where the cell ends).
final class CellGeometry: @unchecked Sendable {
    static let chunkSegments = 8
    static let partHeaderWords = 4
    static let chunkHeaderWords = 5

    /// Written only in `init`, then read-only.
    private let words: UnsafeMutablePointer<UInt16>
    /// Per cell: its first word, `farMask`, `partCount`; one more entry marks where the last cell ends.
    private let headers: UnsafeMutablePointer<(start: UInt32, farMask: UInt16, partCount: UInt16)>

    init(_ tables: PlacesTables) {
        headers = .allocate(capacity: tables.cellCount + 1)
        // `PlacesFileValidator` has checked that the words fit `maximumWords`, so the counts below neither
        // overflow a UInt32 offset nor allocate without bound.
        var total = 0
        for cell in 0..<tables.cellCount {
            headers[cell] = (UInt32(total), tables.cellFarMask(cell), UInt16(tables.cellPartCount(cell)))
            total += Self.words(ofCell: cell, tables)!
        }
        headers[tables.cellCount] = (UInt32(total), 0, 0)
        words = .allocate(capacity: Swift.max(1, total))
        for cell in 0..<tables.cellCount {
            let base = Int(headers[cell].start)
            var next = base + Self.partHeaderWords * tables.cellPartCount(cell)
            var header = base
            Self.forEachPart(of: cell, tables) { part in
                let offset = UInt32(next - base)
                (words[header], words[header + 1]) = (UInt16(tables.partCountry(part)), tables.partInsideMask(part))
                (words[header + 2], words[header + 3]) = (UInt16(truncatingIfNeeded: offset), UInt16(truncatingIfNeeded: offset >> 16))
                header += Self.partHeaderWords
                Self.forEachChunk(of: part, tables) { first, end in
                    var minX = UInt16.max, minY = UInt16.max, maxX = UInt16.min, maxY = UInt16.min
                    var at = next + Self.chunkHeaderWords
                    for index in first..<end {
                        let (x, y) = tables.point(index)
                        (minX, minY, maxX, maxY) = (Swift.min(minX, x), Swift.min(minY, y), Swift.max(maxX, x), Swift.max(maxY, y))
                        (words[at], words[at + 1]) = (x, y)
                        at += 2
                    }
                    (words[next], words[next + 1], words[next + 2], words[next + 3]) = (minX, minY, maxX, maxY)
                    words[next + 4] = UInt16(end - first)
                    next = at
                }
            }
        }
    }

    deinit {
        words.deallocate()
        headers.deallocate()
    }

    /// The words cell `cell` takes: part headers, and per line `chunkHeaderWords` a chunk and 2 a point
    /// (neighbouring chunks repeat their shared point); `nil` as soon as they are more than `limit`, so a
    /// file whose cells share parts or lines is counted no further than its limit (`PlacesFileValidator`).
    static func words(ofCell cell: Int, _ tables: PlacesTables, limit: Int = .max) -> Int? {
        var words = 0
        let firstPart = tables.cellFirstPart(cell)
        for part in firstPart..<(firstPart + tables.cellPartCount(cell)) {
            words += partHeaderWords
            guard words <= limit else { return nil }
            let firstLine = tables.partFirstLine(part)
            for line in firstLine..<(firstLine + tables.partLineCount(part)) {
                words += Self.words(ofLineWith: tables.linePointCount(line))
                guard words <= limit else { return nil }
            }
        }
        return words
    }

    /// The words of a line of `points` points (at least 9).
    static func words(ofLineWith points: Int) -> Int {
        let chunks = Swift.max(1, (points - 1 + chunkSegments - 1) / chunkSegments)
        return chunkHeaderWords * chunks + 2 * (points + chunks - 1)
    }

    /// The most words a file may need: ~3 a point when, as the generator writes them, every line belongs to
    /// one part of one cell. The format allows parts and lines shared between cells, which could multiply
    /// the copy without bound; the validator refuses such a file.
    static func maximumWords(_ tables: PlacesTables) -> Int {
        Swift.min(Int(UInt32.max), 3 * tables.pointCount + (chunkHeaderWords + 2) * tables.lineCount
            + partHeaderWords * tables.partCount)
    }

    @inline(__always)
    private static func forEachPart(of cell: Int, _ tables: PlacesTables, _ body: (Int) -> Void) {
        let firstPart = tables.cellFirstPart(cell)
        for part in firstPart..<(firstPart + tables.cellPartCount(cell)) { body(part) }
    }

    /// Each run of at most `chunkSegments` segments of the part's lines, as `PNTS` indexes `[first, end)`.
    @inline(__always)
    private static func forEachChunk(of part: Int, _ tables: PlacesTables, _ body: (_ first: Int, _ end: Int) -> Void) {
        let firstLine = tables.partFirstLine(part)
        for line in firstLine..<(firstLine + tables.partLineCount(part)) {
            let first = tables.lineFirstPoint(line), end = first + tables.linePointCount(line)
            var start = first
            repeat {
                let stop = Swift.min(end, start + chunkSegments + 1)
                body(start, stop)
                start = stop - 1
            } while start < end - 1
        }
    }

    // MARK: Reading

    @inline(__always) func farMask(_ cell: Int) -> UInt16 { headers[cell].farMask }
    @inline(__always) func partCount(_ cell: Int) -> Int { Int(headers[cell].partCount) }

    /// Part `index` (0-based within the cell) of `cell`: its country, inside mask, and its chunks' words.
    @inline(__always)
    func part(_ index: Int, of cell: Int) -> (country: Int, insideMask: UInt16, chunks: UnsafeBufferPointer<UInt16>) {
        let base = Int(headers[cell].start)
        let header = base + Self.partHeaderWords * index
        let start = base + (Int(words[header + 2]) | Int(words[header + 3]) << 16)
        let end: Int
        if index + 1 < Int(headers[cell].partCount) {
            let next = header + Self.partHeaderWords
            end = base + (Int(words[next + 2]) | Int(words[next + 3]) << 16)
        } else {
            end = Int(headers[cell + 1].start)
        }
        return (Int(words[header]), words[header + 1], UnsafeBufferPointer(start: words + start, count: end - start))
    }
}
