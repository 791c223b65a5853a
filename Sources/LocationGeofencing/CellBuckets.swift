/// The fences of every cell, each cell's in one contiguous block of compact copies (centre in
/// `Float` Earth-centred coordinates, radius): a dense cell is read sequentially, so the hardware
/// prefetches it, and most of its fences are rejected without touching their own records.
///
/// A cell's block is found by its id (what ``CellTable`` stores). Blocks come in power-of-two
/// capacities from one pool; a full block moves to one twice as large (its id stays), and freed
/// space is reused by the next block of its size. Removal moves the block's last entry into the hole.
struct CellBuckets {
    static let none = CellTable.none

    struct Entry {
        var fence: UInt32
        var x: Float
        var y: Float
        var z: Float
        var radius: Float
    }

    struct Block {
        var offset: UInt32
        var count: UInt32
        var sizeClass: UInt8
    }

    private(set) var entries: [Entry] = []
    private(set) var blocks: [Block] = []
    private var freeBlocks: [UInt32] = []
    /// Free space in `entries` by size class (capacity 2^class).
    private var freeSpace: [[UInt32]] = Array(repeating: [], count: 32)

    var bytes: Int {
        entries.capacity * MemoryLayout<Entry>.stride + blocks.capacity * MemoryLayout<Block>.stride
            + freeBlocks.capacity * 4 + freeSpace.reduce(0) { $0 + $1.capacity * 4 }
    }

    /// Adds `entry` to the cell whose block is `block` (`none` for a new cell); returns the block.
    mutating func add(_ entry: Entry, to block: UInt32) -> UInt32 {
        guard block != Self.none else {
            let id: UInt32
            if let reused = freeBlocks.popLast() {
                id = reused
                blocks[Int(id)] = Block(offset: allocate(sizeClass: 0), count: 0, sizeClass: 0)
            } else {
                id = UInt32(blocks.count)
                blocks.append(Block(offset: allocate(sizeClass: 0), count: 0, sizeClass: 0))
            }
            return add(entry, to: id)
        }
        var b = blocks[Int(block)]
        if b.count == 1 << b.sizeClass {
            let offset = allocate(sizeClass: Int(b.sizeClass) + 1)
            for i in 0..<Int(b.count) { entries[Int(offset) + i] = entries[Int(b.offset) + i] }
            freeSpace[Int(b.sizeClass)].append(b.offset)
            b.offset = offset
            b.sizeClass += 1
        }
        entries[Int(b.offset + b.count)] = entry
        b.count += 1
        blocks[Int(block)] = b
        return block
    }

    /// Removes `fence` from the cell whose block is `block`; returns the block, or `none` when the
    /// cell is now empty (its block is freed).
    mutating func remove(_ fence: UInt32, from block: UInt32) -> UInt32 {
        var b = blocks[Int(block)]
        let start = Int(b.offset), end = Int(b.offset + b.count)
        guard let index = (start..<end).first(where: { entries[$0].fence == fence }) else { return block }
        entries[index] = entries[end - 1]
        b.count -= 1
        if b.count == 0 {
            freeSpace[Int(b.sizeClass)].append(b.offset)
            freeBlocks.append(block)
            return Self.none
        }
        blocks[Int(block)] = b
        return block
    }

    private mutating func allocate(sizeClass: Int) -> UInt32 {
        if let offset = freeSpace[sizeClass].popLast() { return offset }
        let offset = UInt32(entries.count)
        entries.append(contentsOf: repeatElement(Entry(fence: 0, x: 0, y: 0, z: 0, radius: 0), count: 1 << sizeClass))
        return offset
    }
}
