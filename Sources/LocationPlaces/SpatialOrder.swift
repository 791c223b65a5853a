/// An order of points that keeps neighbours together, sorted by radix: the 0.5° grid cells in Morton order
/// (row and column interleaved), and inside a cell the order of the nearest-place candidate trees'
/// quadrants to their deepest level, seven (128 × 128 squares of 1/256°, ~430 m of latitude).
///
/// Why: answering random points one after another reads the database at random — a grid entry, tree
/// nodes, a place's record and strings, each a cache miss of ~150 ns on a machine whose caches hold a
/// fraction of the file. Points answered in this order share those loads with their neighbours, so a
/// batch costs a fraction of the same points answered one by one. Inside a cell the key's bits are the
/// quadrants a descent of `NearestCandidates` takes (south-west, south-east, north-west, north-east, the
/// latitude's bit above the longitude's at each level), so the points walk each tree leaf by leaf and never
/// come back to a leaf they left: near places 5 % faster a batch than a Morton code of the whole Earth's
/// latitude and longitude in 16 bits each, whose squares straddle the cells' and quadrants' edges. A radix
/// sort (three passes of eleven bits) costs a few nanoseconds a point, where a comparison sort of a million
/// keys costs ~100.
enum SpatialOrder {
    /// A point and where it came from.
    struct Entry {
        var index: Int
        var latitude: Double
        var longitude: Double
    }

    /// Points gathered at a time: 384 KB of entries, so a batch's memory beyond its input is the sort's
    /// 16 bytes a point, not 40. Still thousands of independent loads a gather, which is what overlaps them;
    /// 65,536 (1.5 MB) measured no faster, and a batch's peak memory counts against a fifth of
    /// reverse_geocoder's.
    static let chunkSize = 16_384

    /// Chunks in a batch of `count` points.
    static func chunkCount(_ count: Int) -> Int { (count + chunkSize - 1) / chunkSize }

    /// The sorted positions of chunk `chunk` of a batch of `count` points.
    static func positions(ofChunk chunk: Int, count: Int) -> Range<Int> {
        (chunk * chunkSize)..<Swift.min(count, (chunk + 1) * chunkSize)
    }

    /// The points' keys (`mortonKey`), each in the high `keyBits` of a word whose low `offsetBits` are the
    /// point's offset in `coordinates`, sorted: the order in which a batch answers them.
    ///
    /// The sort moves 8-byte words (key and offset); the coordinates are gathered in the sorted order
    /// afterwards, a chunk at a time (`SortedBatch.gather`).
    static func sortedKeys(
        of coordinates: UnsafeBufferPointer<(latitude: Double, longitude: Double)>, threads: Int = 1,
        pool: ScratchPool? = nil
    ) -> ScratchMemory<UInt64> {
        let count = coordinates.count
        precondition(count <= 1 << offsetBits, "at most 2,147,483,648 points a batch")
        var keys = ScratchMemory<UInt64>(count: count, pool: pool)
        let parts = Swift.max(1, Swift.min(threads, count / minimumPart))
        let words = Shared(keys.elements)
        inParallel(parts) { part in
            for offset in range(ofPart: part, of: parts, count: count) {
                let point = coordinates[offset]
                words.value[offset] = mortonKey(latitude: point.latitude, longitude: point.longitude) << offsetBits
                    | UInt64(offset)
            }
        }
        // The sort's second buffer, back in the pool (or the system's) before the answers take memory of their own.
        var scratch = ScratchMemory<UInt64>(count: count, pool: pool)
        radixSortByKey(&keys, scratch: &scratch, parts: parts)
        return keys
    }

    /// Points a thread of the sort takes at least: fewer are sorted faster than a thread is woken.
    static let minimumPart = 32_768

    /// Part `part` of `parts` contiguous ranges covering `0..<count`.
    @inline(__always)
    static func range(ofPart part: Int, of parts: Int, count: Int) -> Range<Int> {
        (count * part / parts)..<(count * (part + 1) / parts)
    }

    /// Squares of a cell's side at the key's deepest level: the candidate trees' seven levels.
    private static let squaresPerCell: UInt32 = 128
    /// The key's low bits, the point's square in its cell: two a level (its row's and its column's).
    private static let squareBits = 14
    /// The key's bits: 19 for the cell (9 of the row's 360, 10 of the column's 720) above the square's.
    static let keyBits = 19 + squareBits
    /// The sorted word's low bits, below the key: the point's offset in the batch.
    static let offsetBits = 64 - keyBits

    /// The grid cell's row and column interleaved (row in odd bits), then the point's square of the cell,
    /// row and column of 0…127 interleaved the same way; all ones (`keyBits` of them) for points outside the
    /// coordinate ranges or not finite, which sort last. Each square's edges are multiples of 1/256°, as the
    /// candidate trees' quadrants at level seven are (the cell's 0.5° halved seven times).
    ///
    /// A cell has 128 (2⁷) squares a side, so the cell's row and column are the square counts' bits above
    /// the seventh and the square's row and column the seven below: the key is the square counts themselves
    /// interleaved, the column's 17 bits in the even positions and the row's 16 in the odd ones — two
    /// spreads, where interleaving the cell and the square separately took four.
    @inline(__always)
    static func mortonKey(latitude: Double, longitude: Double) -> UInt64 {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else {
            return (1 << keyBits) - 1
        }
        // Squares from the south-west corner; multiplying by a power of two is exact, and converting truncates,
        // which for these non-negative values is rounding down (without `floor`'s call). The north pole and
        // 180° belong to the last row and column, as in `PlacesTables.gridCell`.
        let perDegree = Double(squaresPerCell) / PlacesTables.cellDegrees
        let y = Swift.min(UInt32((latitude + 90) * perDegree), UInt32(PlacesTables.gridRows) * squaresPerCell - 1)
        let x = Swift.min(UInt32((longitude + 180) * perDegree), UInt32(PlacesTables.gridColumns) * squaresPerCell - 1)
        return spread(x) | spread(y) << 1
    }

    /// The 32 bits of `value` moved to the even bit positions.
    @inline(__always)
    private static func spread(_ value: UInt32) -> UInt64 {
        var v = UInt64(value)
        v = (v | v << 16) & 0x0000_FFFF_0000_FFFF
        v = (v | v << 8) & 0x00FF_00FF_00FF_00FF
        v = (v | v << 4) & 0x0F0F_0F0F_0F0F_0F0F
        v = (v | v << 2) & 0x3333_3333_3333_3333
        v = (v | v << 1) & 0x5555_5555_5555_5555
        return v
    }

    /// Bits a digit of the radix sort: three passes cover the 33-bit key, and a pass's 2,048 counters and
    /// write positions stay in the first-level cache (four passes of eight bits moved every word once more).
    private static let digitBits = 11
    private static let digits = 1 << digitBits
    private static let passes = (keyBits + digitBits - 1) / digitBits

    /// Least-significant-digit radix sort on the key's bits (`offsetBits`…63), `digitBits` bits a pass, moving
    /// the words between `words` and `scratch` (of the same count), which are swapped when the sorted words end
    /// in `scratch`: stable, so equal keys keep their indexes' order. Split over `parts` threads: every pass,
    /// each part counts the digits of its own range of the words, and then moves them to where the counts of
    /// all parts place them (a part's words of a digit after those of the parts before it, so the order is the
    /// one a single part gives). Counting each pass in a read of its own, rather than every pass's digits in one
    /// read, measured no slower on one thread (188–194 ns a near-places point either way).
    private static func radixSortByKey(
        _ words: inout ScratchMemory<UInt64>, scratch: inout ScratchMemory<UInt64>, parts: Int
    ) {
        let count = words.elements.count
        let mask = UInt64(digits - 1)
        let counts = Shared(UnsafeMutablePointer<Int>.allocate(capacity: parts * digits))
        defer { counts.value.deallocate() }
        for pass in 0..<passes {
            let shift = UInt64(offsetBits + digitBits * pass)
            let source = Shared(words.elements), target = Shared(scratch.elements)
            inParallel(parts) { part in
                let row = counts.value + part * digits
                row.initialize(repeating: 0, count: digits)
                for position in range(ofPart: part, of: parts, count: count) {
                    row[Int(truncatingIfNeeded: source.value[position] >> shift & mask)] += 1
                }
            }
            var sum = 0
            for digit in 0..<digits {
                for part in 0..<parts {
                    let slot = part * digits + digit
                    let partCount = counts.value[slot]
                    counts.value[slot] = sum
                    sum += partCount
                }
            }
            inParallel(parts) { part in
                let row = counts.value + part * digits
                for position in range(ofPart: part, of: parts, count: count) {
                    let word = source.value[position]
                    let digit = Int(truncatingIfNeeded: word >> shift & mask)
                    target.value[row[digit]] = word
                    row[digit] += 1
                }
            }
            swap(&words, &scratch)
        }
    }
}
