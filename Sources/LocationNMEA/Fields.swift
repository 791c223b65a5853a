/// The error a sentence parser throws: the sentence is not valid and is counted as malformed.
/// A typed, payload-free error, so throwing never allocates.
struct Malformed: Error {}

/// One comma-separated field of a sentence, as a byte range of the input (never copied).
struct Field {
    let base: UnsafeRawPointer
    let start: Int
    let end: Int

    @inline(__always) var isEmpty: Bool { start == end }
    @inline(__always) var count: Int { end - start }

    @inline(__always) subscript(offset: Int) -> UInt8 {
        base.load(fromByteOffset: start + offset, as: UInt8.self)
    }

    /// True when the field is exactly the single character `c`.
    @inline(__always) func `is`(_ c: UInt8) -> Bool { count == 1 && self[0] == c }

    /// A one-character field (a status or unit letter), nil when empty.
    @inline(__always) func character() throws(Malformed) -> UInt8? {
        if isEmpty { return nil }
        guard count == 1 else { throw Malformed() }
        return self[0]
    }

    /// Empty, or exactly `c` (the unit letters after GGA's altitude and separation).
    @inline(__always) func expect(emptyOr c: UInt8) throws(Malformed) {
        guard isEmpty || `is`(c) else { throw Malformed() }
    }
}

/// The fields of one sentence's payload, read left to right with no per-field storage.
struct FieldCursor {
    let base: UnsafeRawPointer
    private var position: Int
    private let end: Int
    private var exhausted: Bool

    /// `start..<end` is the text after the address's comma and before the `*` (or the line end).
    init(base: UnsafeRawPointer, start: Int, end: Int, hasFields: Bool) {
        self.base = base
        self.position = start
        self.end = end
        self.exhausted = !hasFields
    }

    /// True when another field follows.
    @inline(__always) var hasMore: Bool { !exhausted }

    /// The next field; throws when the sentence has no more fields (it was cut short).
    @inline(__always) mutating func next() throws(Malformed) -> Field {
        guard !exhausted else { throw Malformed() }
        var i = position
        while i < end, base.load(fromByteOffset: i, as: UInt8.self) != UInt8(ascii: ",") { i &+= 1 }
        let field = Field(base: base, start: position, end: i)
        if i < end { position = i &+ 1 } else { exhausted = true }
        return field
    }

    /// The next field, or nil at the end of the sentence (for trailing fields later NMEA versions added).
    @inline(__always) mutating func nextIfPresent() -> Field? {
        exhausted ? nil : (try? next())
    }

    /// How many fields remain (counts commas; used only where the layout depends on it).
    var remainingCount: Int {
        if exhausted { return 0 }
        var n = 1
        var i = position
        while i < end {
            if base.load(fromByteOffset: i, as: UInt8.self) == UInt8(ascii: ",") { n &+= 1 }
            i &+= 1
        }
        return n
    }

    /// Skips `n` fields; throws if fewer remain.
    @inline(__always) mutating func skip(_ n: Int) throws(Malformed) {
        for _ in 0..<n { _ = try next() }
    }
}
