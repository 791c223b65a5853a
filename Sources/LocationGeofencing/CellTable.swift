/// An open-addressing hash table from a cell's id to the first node of its fence list.
///
/// Linear probing with backward-shift deletion (no tombstones, so lookups never slow down as fences
/// come and go), a multiplicative hash of the 64-bit id, at most half full. Key and head share one
/// 16-byte entry, so a probe among a million fences is one cache miss, not two. Swift's
/// `Dictionary` hashes with SipHash, several times the cost of one probe here.
struct CellTable {
    static let none = UInt32.max

    struct Entry {
        var key: UInt64
        var head: UInt32
    }

    private var entries: [Entry]
    private var shift: UInt64
    private(set) var count = 0

    init() {
        entries = Array(repeating: Entry(key: 0, head: Self.none), count: 16)
        shift = 64 - 4
    }

    var bytes: Int { entries.capacity * MemoryLayout<Entry>.stride }

    @inline(__always)
    func slot(_ key: UInt64) -> Int {
        var h = key ^ (key >> 31)
        h = h &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: h >> shift)
    }

    /// The first node of `key`'s list, or `none`, probing from `start` (``slot(_:)``).
    @inline(__always)
    func head(_ key: UInt64, from start: Int) -> UInt32 {
        entries.withUnsafeBufferPointer { entries in
            let mask = entries.count - 1
            var i = start
            while true {
                let entry = entries[i]
                if entry.key == key { return entry.head }
                if entry.key == 0 { return Self.none }
                i = (i + 1) & mask
            }
        }
    }

    @inline(__always)
    func head(_ key: UInt64) -> UInt32 { head(key, from: slot(key)) }

    /// Sets `key`'s first node, adding the key if it is new.
    mutating func setHead(_ key: UInt64, _ node: UInt32) {
        if (count + 1) * 2 > entries.count { grow() }
        let mask = entries.count - 1
        var i = slot(key)
        while entries[i].key != 0 && entries[i].key != key { i = (i + 1) & mask }
        if entries[i].key == 0 { count += 1 }
        entries[i] = Entry(key: key, head: node)
    }

    /// Removes `key` (its list is empty), shifting back any entry whose probe passed through it.
    mutating func remove(_ key: UInt64) {
        let mask = entries.count - 1
        var i = slot(key)
        while entries[i].key != key {
            if entries[i].key == 0 { return }
            i = (i + 1) & mask
        }
        count -= 1
        var hole = i
        var j = i
        while true {
            j = (j + 1) & mask
            if entries[j].key == 0 { break }
            let home = slot(entries[j].key)
            // Move j into the hole when its home is not cyclically within (hole, j].
            let inRange = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
            if !inRange {
                entries[hole] = entries[j]
                hole = j
            }
        }
        entries[hole] = Entry(key: 0, head: Self.none)
    }

    private mutating func grow() {
        let old = entries
        entries = Array(repeating: Entry(key: 0, head: Self.none), count: old.count * 2)
        shift -= 1
        count = 0
        for entry in old where entry.key != 0 { setHead(entry.key, entry.head) }
    }
}
