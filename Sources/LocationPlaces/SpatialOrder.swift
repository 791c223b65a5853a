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

    /// The points of `coordinates` in Morton order, each with its index, handed to `body` a chunk at a
    /// time; points that are not valid coordinates come last (their answer is `nil` anyway).
    ///
    /// The sort moves 8-byte words (key and index); then the coordinates are gathered in the sorted order
    /// in a pass of their own, whose loads are independent of each other, so they overlap, where looking
    /// each point up while answering it would wait for a cache miss per point.
    static func forEachChunk(
        of coordinates: UnsafeBufferPointer<(latitude: Double, longitude: Double)>, firstIndex: Int,
        _ body: (UnsafeBufferPointer<Entry>) throws -> Void
    ) rethrows {
        let count = coordinates.count
        precondition(count <= Int(UInt32.max), "at most 4,294,967,295 points a batch")
        guard count > 0 else { return }
        var keys = ScratchMemory(wordCount: count)
        for (offset, point) in coordinates.enumerated() {
            keys.words[offset] = UInt64(mortonKey(latitude: point.latitude, longitude: point.longitude)) << 32
                | UInt64(offset)
        }
        do {
            // The sort's second buffer, gone before the answers take memory of their own.
            var scratch = ScratchMemory(wordCount: count)
            radixSortByHighHalf(&keys, scratch: &scratch)
        }
        let sorted = UnsafeBufferPointer(keys.words)
        // A buffer, not an array: appending checked the capacity and stored the count for every point.
        let chunk = UnsafeMutableBufferPointer<Entry>.allocate(capacity: Swift.max(1, Swift.min(count, chunkSize)))
        defer { chunk.deallocate() }
        for start in stride(from: 0, to: count, by: chunkSize) {
            let end = Swift.min(count, start + chunkSize)
            for position in start..<end {
                let offset = Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: sorted[position]))
                let point = coordinates[offset]
                chunk[position - start] = Entry(
                    index: firstIndex + offset, latitude: point.latitude, longitude: point.longitude)
            }
            try body(UnsafeBufferPointer(rebasing: chunk[0..<(end - start)]))
        }
        withExtendedLifetime(keys) {}
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

    /// Least-significant-digit radix sort on bits 32…63, `digitBits` bits a pass (every pass's counts taken
    /// in one read of the words), moving the words between `words` and `scratch` (of the same count), which
    /// are swapped when the sorted words end in `scratch`: stable, so equal keys keep their indexes' order.
    private static func radixSortByHighHalf(_ words: inout ScratchMemory, scratch: inout ScratchMemory) {
        guard words.words.count > 1 else { return }
        let mask = UInt64(digits - 1)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: passes * digits) { counts in
            counts.initialize(repeating: 0)
            for word in words.words {
                for pass in 0..<passes {
                    counts[pass * digits + Int(truncatingIfNeeded: word >> UInt64(32 + digitBits * pass) & mask)] += 1
                }
            }
            for pass in 0..<passes {
                var sum = 0
                for digit in 0..<digits {
                    let count = counts[pass * digits + digit]
                    counts[pass * digits + digit] = sum
                    sum += count
                }
                let shift = UInt64(32 + digitBits * pass)
                let target = scratch.words
                for word in words.words {
                    let slot = pass * digits + Int(truncatingIfNeeded: word >> shift & mask)
                    target[counts[slot]] = word
                    counts[slot] += 1
                }
                swap(&words, &scratch)
            }
        }
    }
}
