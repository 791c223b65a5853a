/// An open-addressing hash table from a cell's id to the first node of its fence list.
///
/// Linear probing with backward-shift deletion (no tombstones, so lookups never slow down as fences
/// come and go), a multiplicative hash of the 64-bit id, at most half full. Swift's `Dictionary`
/// hashes with SipHash, several times the cost of one probe here.
struct CellTable {
    static let none = UInt32.max
    private var keys: [UInt64]
    private var heads: [UInt32]
    private var shift: UInt64
    private(set) var count = 0

    init() {
        keys = Array(repeating: 0, count: 16)
        heads = Array(repeating: Self.none, count: 16)
        shift = 64 - 4
    }

    var capacity: Int { keys.count }
    var bytes: Int { keys.capacity * 8 + heads.capacity * 4 }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int {
        var h = key ^ (key >> 31)
        h = h &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: h >> shift)
    }

    /// The first node of `key`'s list, or `none`.
    @inline(__always)
    func head(_ key: UInt64) -> UInt32 {
        let mask = keys.count - 1
        return keys.withUnsafeBufferPointer { keys in
            var i = slot(key)
            while true {
                let k = keys[i]
                if k == key { return heads[i] }
                if k == 0 { return Self.none }
                i = (i + 1) & mask
            }
        }
    }

    /// Sets `key`'s first node, adding the key if it is new.
    mutating func setHead(_ key: UInt64, _ node: UInt32) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var i = slot(key)
        while keys[i] != 0 && keys[i] != key { i = (i + 1) & mask }
        if keys[i] == 0 { count += 1 }
        keys[i] = key
        heads[i] = node
    }

    /// Removes `key` (its list is empty), shifting back any entry whose probe passed through it.
    mutating func remove(_ key: UInt64) {
        let mask = keys.count - 1
        var i = slot(key)
        while keys[i] != key {
            if keys[i] == 0 { return }
            i = (i + 1) & mask
        }
        count -= 1
        var hole = i
        var j = i
        while true {
            j = (j + 1) & mask
            if keys[j] == 0 { break }
            let home = slot(keys[j])
            // Move j into the hole when its home is not cyclically within (hole, j].
            let inRange = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
            if !inRange {
                keys[hole] = keys[j]
                heads[hole] = heads[j]
                hole = j
            }
        }
        keys[hole] = 0
        heads[hole] = Self.none
    }

    private mutating func grow() {
        let oldKeys = keys, oldHeads = heads
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        heads = Array(repeating: Self.none, count: oldKeys.count * 2)
        shift -= 1
        count = 0
        for (k, h) in zip(oldKeys, oldHeads) where k != 0 { setHead(k, h) }
    }
}
