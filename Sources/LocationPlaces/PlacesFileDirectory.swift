/// The header and section directory of `places.bin`: magic, version, and each required section's
/// bounds and record size. Nothing here trusts the file: every offset and length is checked against
/// the file's size with overflow-free arithmetic before a view is made.
struct PlacesFileDirectory {
    static let magic: [UInt8] = Array("CLPLACES".utf8)
    static let version: UInt32 = 2
    static let headerSize = 16
    static let entrySize = 24

    /// Required sections and their record sizes (0: a byte blob).
    static let required: [(tag: String, recordSize: Int)] = [
        ("META", 0), ("STRS", 0), ("CTRY", 16), ("TZNS", 4), ("ADM1", 8), ("ADM2", 8), ("PLCE", 32), ("PAD2", 2),
        ("NIDX", 8), ("GRID", 4), ("CELL", 8), ("PART", 12), ("LINE", 8), ("PNTS", 4),
    ]

    /// Optional sections (all of them or none) and their record sizes: the nearest-place candidates.
    static let optional: [(tag: String, recordSize: Int)] = [("NRCL", 4), ("NRPT", 8), ("NRND", 16), ("NRCA", 2)]

    /// An optional section of its own that needs the nearest-place candidates: the leaves inside one country.
    static let insideLeaves = "NRIN"

    private var sections: [String: UnsafeRawBufferPointer] = [:]

    init(file: MappedFile, path: String) throws(PlacesDatabaseError) {
        let size = file.count
        let base = file.base
        guard size >= Self.headerSize else {
            throw .corrupt(path: path, reason: "the file is \(size) bytes, shorter than the \(Self.headerSize)-byte header")
        }
        guard (0..<8).allSatisfy({ base.load(fromByteOffset: $0, as: UInt8.self) == Self.magic[$0] }) else {
            throw .corrupt(path: path, reason: "it does not start with the magic \"CLPLACES\"")
        }
        let version = PlacesTables.u32(base, 8)
        guard version == Self.version else { throw .unsupportedVersion(path: path, version: version) }
        let count = Int(PlacesTables.u32(base, 12))
        guard count <= (size - Self.headerSize) / Self.entrySize else {
            throw .corrupt(path: path, reason: "the directory of \(count) sections extends past the end of the file "
                + "(file size \(size))")
        }
        for index in 0..<count {
            let entry = Self.headerSize + index * Self.entrySize
            let tagBytes = (0..<4).map { base.load(fromByteOffset: entry + $0, as: UInt8.self) }
            let tag = String(decoding: tagBytes, as: UTF8.self)
            let offset = base.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self).littleEndian
            let length = base.loadUnaligned(fromByteOffset: entry + 16, as: UInt64.self).littleEndian
            guard offset <= UInt64(size), length <= UInt64(size) - offset else {
                throw .corrupt(path: path, reason: "section \(tag) extends past the end of the file "
                    + "(offset \(offset), length \(length), file size \(size))")
            }
            // Unknown tags are ignored; a repeated required tag would make the file ambiguous.
            guard Self.required.contains(where: { $0.tag == tag }) || Self.optional.contains(where: { $0.tag == tag })
                || tag == Self.insideLeaves
            else { continue }
            guard sections[tag] == nil else {
                throw .corrupt(path: path, reason: "section \(tag) appears twice in the directory")
            }
            sections[tag] = UnsafeRawBufferPointer(start: base + Int(offset), count: Int(length))
        }
        for (tag, recordSize) in Self.required {
            guard let section = sections[tag] else {
                throw .corrupt(path: path, reason: "the required section \(tag) is missing")
            }
            if recordSize > 0, section.count % recordSize != 0 {
                throw .corrupt(path: path, reason: "section \(tag) is \(section.count) bytes, not a multiple of "
                    + "its \(recordSize)-byte records")
            }
        }
        let present = Self.optional.filter { sections[$0.tag] != nil }
        if !present.isEmpty, present.count != Self.optional.count {
            let missing = Self.optional.filter { sections[$0.tag] == nil }.map(\.tag).joined(separator: ", ")
            throw .corrupt(path: path, reason: "the nearest-place candidates are incomplete: \(missing) missing")
        }
        if sections[Self.insideLeaves] != nil, present.isEmpty {
            throw .corrupt(path: path, reason: "section \(Self.insideLeaves) needs the nearest-place candidates")
        }
        for (tag, recordSize) in present where sections[tag]!.count % recordSize != 0 {
            throw .corrupt(path: path, reason: "section \(tag) is \(sections[tag]!.count) bytes, not a multiple of "
                + "its \(recordSize)-byte records")
        }
    }

    /// Whether the file has the optional nearest-place candidates (all their sections: `init` checked).
    var hasNearestCandidates: Bool { sections["NRCL"] != nil }

    /// `NRIN`, when the file has it (with the candidates: `init` checked).
    var insideLeaves: UnsafeRawBufferPointer? { sections[Self.insideLeaves] }

    /// The section's bytes (a required tag, present after `init`).
    func bytes(_ tag: String) -> UnsafeRawBufferPointer { sections[tag]! }

    /// The section's start (a valid address even for an empty section) and record count.
    func records(_ tag: String, size: Int) -> (UnsafeRawPointer, Int) {
        let section = bytes(tag)
        return (section.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!, section.count / size)
    }
}
