/// A spatial index over circular fences (all apps' fences in one index), keyed by dense slots.
///
/// Each fence lives at one ``FenceGrid`` level chosen by its radius and is entered in the 1–4 cells
/// (rarely more) its box touches: a cell's entries sit in one contiguous block (``CellBuckets``)
/// found through ``CellTable``, each entry a compact copy of the fence that rejects most
/// non-candidates without reading the fence's record. Inserting or removing a fence touches only its own cells. A query
/// walks, at every level that holds fences, the cells the query point's box touches (usually one
/// per level), and filters by distance: chord bounds first, Karney's geodesic only within a
/// micrometre of the threshold. When a query box would touch more cells than a level holds fences
/// (huge margins), that level's fences are scanned instead, so no query costs more than a scan.
///
/// Memory (``memoryBytes``): ~150–200 bytes a fence at a million fences (array capacities, growth
/// slack included). Not thread-safe: confine it to one context.
public final class FenceIndex {
    static let noNode = CellTable.none
    static let freeLevel: UInt8 = .max

    // Per fence slot.
    private(set) var centres: [EarthPoint] = []
    private(set) var radii: [Double] = []
    private var levels: [UInt8] = []
    private var levelPositions: [UInt32] = []
    private var stamps: [UInt32] = []
    private var freeKeys: [UInt32] = []

    // The fences of each level, for scans.
    private var levelMembers: [[UInt32]] = Array(repeating: [], count: FenceGrid.levelCount)
    /// `levelMembers`' counts, read by every query without touching the arrays themselves.
    private var levelSizes: [Int] = Array(repeating: 0, count: FenceGrid.levelCount)

    // Each cell's fences: the cell's block id in the table, the block in the buckets.
    private var cells = CellTable()
    private var buckets = CellBuckets()

    private var stamp: UInt32 = 0
    /// The fences the last query found, with their chord to the query point.
    private(set) var found: [(key: UInt32, chord: Double)] = []

    public init() {}

    /// How many fences the index holds.
    public private(set) var count = 0

    /// The index's storage in bytes (array capacities), for capacity planning and the benchmark.
    public var memoryBytes: Int {
        centres.capacity * 24 + radii.capacity * 8 + levels.capacity + levelPositions.capacity * 4
            + stamps.capacity * 4 + freeKeys.capacity * 4 + levelMembers.reduce(0) { $0 + $1.capacity * 4 }
            + cells.bytes + buckets.bytes
    }

    /// Adds a fence; nil when the circle is invalid (``FenceCircle/isValid``).
    public func insert(_ circle: FenceCircle) -> FenceKey? {
        guard circle.isValid else { return nil }
        let key: UInt32
        if let reused = freeKeys.popLast() {
            key = reused
        } else {
            guard centres.count < Int(UInt32.max) else { return nil }
            key = UInt32(centres.count)
            centres.append(EarthPoint(x: 0, y: 0, z: 0))
            radii.append(0)
            levels.append(Self.freeLevel)
            levelPositions.append(0)
            stamps.append(0)
        }
        place(key, circle)
        count += 1
        return FenceKey(rawValue: key)
    }

    /// Moves or resizes a fence, keeping its key; false when the key is not in use or the circle is
    /// invalid (then the fence is unchanged).
    @discardableResult
    public func replace(_ key: FenceKey, with circle: FenceCircle) -> Bool {
        guard contains(key), circle.isValid else { return false }
        unplace(key.rawValue)
        place(key.rawValue, circle)
        return true
    }

    /// Removes a fence; false when the key is not in use.
    @discardableResult
    public func remove(_ key: FenceKey) -> Bool {
        guard contains(key) else { return false }
        unplace(key.rawValue)
        freeKeys.append(key.rawValue)
        count -= 1
        return true
    }

    public func contains(_ key: FenceKey) -> Bool {
        Int(key.rawValue) < levels.count && levels[Int(key.rawValue)] != Self.freeLevel
    }

    /// The fence's circle as stored (the centre survives a round trip through Cartesian
    /// coordinates to within ~10⁻¹⁴ degrees).
    public func circle(_ key: FenceKey) -> FenceCircle? {
        guard contains(key) else { return nil }
        let c = centres[Int(key.rawValue)]
        return FenceCircle(latitude: c.latitude, longitude: c.longitude, radius: radii[Int(key.rawValue)])
    }

    /// Every fence whose disk comes within `margin` metres of the point: geodesic distance from the
    /// point to the centre ≤ radius + margin. Order unspecified.
    public func candidates(latitude: Double, longitude: Double, margin: Double) -> [FenceKey] {
        guard query(latitude: latitude, longitude: longitude, margin: margin) else { return [] }
        return found.map { FenceKey(rawValue: $0.key) }
    }

    // MARK: Placement

    private func place(_ key: UInt32, _ circle: FenceCircle) {
        let centre = EarthPoint(latitude: circle.latitude, longitude: circle.longitude)
        let level = FenceGrid.level(forRadius: circle.radius)
        let i = Int(key)
        centres[i] = centre
        radii[i] = circle.radius
        levels[i] = UInt8(level)
        levelPositions[i] = UInt32(levelMembers[level].count)
        levelMembers[level].append(key)
        levelSizes[level] += 1
        stamps[i] = 0
        let entry = CellBuckets.Entry(fence: key, x: Float(centre.x), y: Float(centre.y), z: Float(centre.z),
                                      radius: Float(circle.radius))
        forEachCell(of: key) { cell in
            let head = cells.head(cell)
            let newHead = buckets.add(entry, to: head)
            if newHead != head { cells.setHead(cell, newHead) }
        }
    }

    private func unplace(_ key: UInt32) {
        let i = Int(key)
        forEachCell(of: key) { cell in
            let head = cells.head(cell)
            let newHead = buckets.remove(key, from: head)
            if newHead == Self.noNode { cells.remove(cell) } else if newHead != head { cells.setHead(cell, newHead) }
        }
        let level = Int(levels[i])
        let position = Int(levelPositions[i])
        let moved = levelMembers[level].removeLast()
        levelSizes[level] -= 1
        if position < levelMembers[level].count {
            levelMembers[level][position] = moved
            levelPositions[Int(moved)] = UInt32(position)
        }
        levels[i] = Self.freeLevel
    }

    /// The cells of a placed fence, from its stored centre (so insertion and removal agree).
    private func forEachCell(of key: UInt32, _ body: (UInt64) -> Void) {
        let i = Int(key)
        let c = centres[i]
        let box = FenceGrid.Box(latitude: c.latitude, longitude: c.longitude, reach: radii[i])
        FenceGrid.forEachCell(box, level: Int(levels[i]), body)
    }

    // MARK: Queries

    /// Fills ``found`` with the fences within `margin` of the point; false (and nothing found) for
    /// an invalid point or margin.
    @discardableResult
    func query(latitude: Double, longitude: Double, margin: Double) -> Bool {
        found.removeAll(keepingCapacity: true)
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              margin.isFinite, margin >= 0 else { return false }
        nextStamp()
        let point = EarthPoint(latitude: latitude, longitude: longitude)
        let box = FenceGrid.Box(latitude: latitude, longitude: longitude, reach: margin)
        // The hot loop works on buffers and locals: class properties would cost an exclusivity
        // check on every access.
        var result = found
        found = []
        let stamp = self.stamp, cells = self.cells, levelSizes = self.levelSizes
        centres.withUnsafeBufferPointer { centres in
            radii.withUnsafeBufferPointer { radii in
                stamps.withUnsafeMutableBufferPointer { stamps in
                    buckets.entries.withUnsafeBufferPointer { entries in
                        buckets.blocks.withUnsafeBufferPointer { blocks in
                            @inline(__always)
                            func test(_ key: UInt32) {
                                let i = Int(key)
                                guard stamps[i] != stamp else { return }
                                let centre = centres[i]
                                let chord = point.chord(to: centre)
                                guard ChordBounds.within(radii[i] + margin, chord: chord, point, centre) else { return }
                                stamps[i] = stamp
                                result.append((key, chord))
                            }
                            for level in 0..<FenceGrid.levelCount where levelSizes[level] > 0 {
                                if FenceGrid.cellEstimate(box, level: level) * 4 > Double(levelSizes[level]) {
                                    for key in levelMembers[level] { test(key) }
                                    continue
                                }
                                FenceGrid.forEachCell(box, level: level) { cell in
                                    let id = cells.head(cell)
                                    guard id != Self.noNode else { return }
                                    let block = blocks[Int(id)]
                                    for e in Int(block.offset)..<Int(block.offset + block.count) {
                                        // A copy in Float: within 0.5 m of the true chord (the
                                        // centre is rounded by ≤ 0.25 m a coordinate), so 1 m
                                        // of slack (and 10⁻⁶ for huge radii) never rejects a fence.
                                        let entry = entries[e]
                                        let dx = Double(entry.x) - point.x, dy = Double(entry.y) - point.y
                                        let dz = Double(entry.z) - point.z
                                        let reach = Double(entry.radius) + margin
                                        let limit = reach + 1 + reach * 1e-6
                                        if dx * dx + dy * dy + dz * dz <= limit * limit { test(entry.fence) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        found = result
        return true
    }

    /// Whether the last query found the fence.
    @inline(__always)
    func wasFound(_ key: UInt32) -> Bool { stamps[Int(key)] == stamp }

    private func nextStamp() {
        if stamp == .max {
            for i in stamps.indices { stamps[i] = 0 }
            stamp = 0
        }
        stamp += 1
    }
}
