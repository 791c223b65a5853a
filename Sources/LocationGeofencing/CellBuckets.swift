/// The fences of every cell, in chunks of `chunkSize` entries that each carry a compact copy of
/// the fence (centre in `Float` Earth-centred coordinates, radius): a dense cell's fences are read
/// a few cache lines at a time and most are rejected without touching the fence's own record.
///
/// A cell's chunks form a list from its head (``CellTable``); only the head chunk is partly
/// filled, so removal moves the head chunk's last entry into the hole.
struct CellBuckets {
    static let chunkSize = 6
    static let none = CellTable.none

    struct Entry {
        var fence: UInt32
        var x: Float
        var y: Float
        var z: Float
        var radius: Float
    }

    private(set) var entries: [Entry] = []
    private(set) var counts: [UInt8] = []
    private(set) var next: [UInt32] = []
    private var freeChunk = CellBuckets.none

    var bytes: Int { entries.capacity * MemoryLayout<Entry>.stride + counts.capacity + next.capacity * 4 }

    /// Adds `entry` to the cell whose head chunk is `head`; returns the (possibly new) head.
    mutating func add(_ entry: Entry, head: UInt32) -> UInt32 {
        if head != Self.none, Int(counts[Int(head)]) < Self.chunkSize {
            let c = Int(head)
            entries[c * Self.chunkSize + Int(counts[c])] = entry
            counts[c] += 1
            return head
        }
        let chunk = newChunk()
        entries[Int(chunk) * Self.chunkSize] = entry
        counts[Int(chunk)] = 1
        next[Int(chunk)] = head
        return chunk
    }

    /// Removes `fence` from the cell whose head chunk is `head`; returns the new head (`none` when
    /// the cell is empty).
    mutating func remove(_ fence: UInt32, head: UInt32) -> UInt32 {
        var chunk = head
        while chunk != Self.none {
            let c = Int(chunk)
            for i in 0..<Int(counts[c]) where entries[c * Self.chunkSize + i].fence == fence {
                let h = Int(head)
                let last = Int(counts[h]) - 1
                entries[c * Self.chunkSize + i] = entries[h * Self.chunkSize + last]
                counts[h] -= 1
                guard counts[h] == 0 else { return head }
                let newHead = next[h]
                next[h] = freeChunk
                freeChunk = head
                return newHead
            }
            chunk = next[c]
        }
        return head
    }

    private mutating func newChunk() -> UInt32 {
        if freeChunk != Self.none {
            let chunk = freeChunk
            freeChunk = next[Int(chunk)]
            return chunk
        }
        let empty = Entry(fence: 0, x: 0, y: 0, z: 0, radius: 0)
        entries.append(contentsOf: repeatElement(empty, count: Self.chunkSize))
        counts.append(0)
        next.append(Self.none)
        return UInt32(counts.count - 1)
    }
}
