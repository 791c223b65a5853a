import Dispatch

/// An order of points that keeps neighbours together: by Morton code (latitude and longitude quantised
/// to 16 bits each, ~300 m × 600 m at the equator, their bits interleaved), sorted by radix.
///
/// Why: answering random points one after another reads the database at random — a grid entry, k-d
/// nodes, a place's record and strings, each a cache miss of ~150 ns on a machine whose caches hold a
/// fraction of the file. Points answered in this order share those loads with their neighbours, so a
/// batch costs a fraction of the same points answered one by one. A radix sort (three passes of eleven
/// bits) costs a few nanoseconds a point, where a comparison sort of a million keys costs ~100.
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

    /// The points' Morton keys, each in the high half of a word whose low half is the point's offset in
    /// `coordinates`, sorted: the order in which a batch answers them.
    ///
    /// The sort moves 8-byte words (key and offset); the coordinates are gathered in the sorted order
    /// afterwards, a chunk at a time (`SortedBatch.gather`).
    static func sortedKeys(
        of coordinates: UnsafeBufferPointer<(latitude: Double, longitude: Double)>, threads: Int = 1
    ) -> ScratchMemory<UInt64> {
        let count = coordinates.count
        precondition(count <= Int(UInt32.max), "at most 4,294,967,295 points a batch")
        var keys = ScratchMemory<UInt64>(count: count)
        let parts = Swift.max(1, Swift.min(threads, count / minimumPart))
        let words = Shared(keys.elements)
        inParallel(parts) { part in
            for offset in range(ofPart: part, of: parts, count: count) {
                let point = coordinates[offset]
                words.value[offset] = UInt64(mortonKey(latitude: point.latitude, longitude: point.longitude)) << 32
                    | UInt64(offset)
            }
        }
        // The sort's second buffer, gone before the answers take memory of their own.
        var scratch = ScratchMemory<UInt64>(count: count)
        radixSortByHighHalf(&keys, scratch: &scratch, parts: parts)
        return keys
    }

    /// Points a thread of the sort takes at least: fewer are sorted faster than a thread is woken.
    static let minimumPart = 32_768

    /// Part `part` of `parts` contiguous ranges covering `0..<count`.
    @inline(__always)
    static func range(ofPart part: Int, of parts: Int, count: Int) -> Range<Int> {
        (count * part / parts)..<(count * (part + 1) / parts)
    }

    /// Runs `body` for parts `0..<parts` at once, one thread a part (the caller's among them); returns when
    /// all have.
    private static func inParallel(_ parts: Int, _ body: (Int) -> Void) {
        if parts == 1 {
            body(0)
        } else {
            withoutActuallyEscaping(body) { body in
                let shared = Shared(body)
                DispatchQueue.concurrentPerform(iterations: parts) { shared.value($0) }
            }
        }
    }

    /// A value the parts of a parallel step share: each writes only its own words (or counters), and
    /// `concurrentPerform` returns only when every part has.
    private struct Shared<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Interleaved 16-bit latitude (odd bits) and longitude (even bits); `UInt32.max` for points outside
    /// the coordinate ranges or not finite.
    @inline(__always)
    static func mortonKey(latitude: Double, longitude: Double) -> UInt32 {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return .max }
        // Converting truncates, which for these non-negative values is rounding down (without `floor`'s call).
        let y = UInt32((latitude + 90) / 180 * 65535)
        let x = UInt32((longitude + 180) / 360 * 65535)
        return spread(x) | spread(y) << 1
    }

    /// The 16 low bits of `value` moved to the even bit positions.
    @inline(__always)
    private static func spread(_ value: UInt32) -> UInt32 {
        var v = value & 0xFFFF
        v = (v | v << 8) & 0x00FF_00FF
        v = (v | v << 4) & 0x0F0F_0F0F
        v = (v | v << 2) & 0x3333_3333
        v = (v | v << 1) & 0x5555_5555
        return v
    }

    /// Bits a digit of the radix sort: three passes cover the 32-bit key, and a pass's 2,048 counters and
    /// write positions stay in the first-level cache (four passes of eight bits moved every word once more).
    private static let digitBits = 11
    private static let digits = 1 << digitBits
    private static let passes = (32 + digitBits - 1) / digitBits

    /// Least-significant-digit radix sort on bits 32…63, `digitBits` bits a pass, moving the words between
    /// `words` and `scratch` (of the same count), which are swapped when the sorted words end in `scratch`:
    /// stable, so equal keys keep their indexes' order. Split over `parts` threads: every pass, each part
    /// counts the digits of its own range of the words, and then moves them to where the counts of all parts
    /// place them (a part's words of a digit after those of the parts before it, so the order is the one a
    /// single part gives). Counting each pass in a read of its own, rather than every pass's digits in one
    /// read, measured no slower on one thread (188–194 ns a near-places point either way).
    private static func radixSortByHighHalf(
        _ words: inout ScratchMemory<UInt64>, scratch: inout ScratchMemory<UInt64>, parts: Int
    ) {
        let count = words.elements.count
        let mask = UInt64(digits - 1)
        let counts = Shared(UnsafeMutablePointer<Int>.allocate(capacity: parts * digits))
        defer { counts.value.deallocate() }
        for pass in 0..<passes {
            let shift = UInt64(32 + digitBits * pass)
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
