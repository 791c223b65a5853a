@testable import LocationPlaces

/// Writes small `places.bin` files by the format's rules (docs/places-database.md), to test the reader's
/// validation with files that are valid, or broken in one precise way.
struct PlacesFileBuilder {
    var version: UInt32 = 2
    var sections: [(tag: String, bytes: [UInt8])]

    /// One country "TL" (Testland) with one place, Alpha (5,000 people) at 10.1°N 10.1°E, in the whole
    /// cell around it; the next cell east is mixed, cut by a line from its south-west corner to the middle
    /// of its east edge, with Testland north-west of the line (where the cell's centre is).
    static func minimal() -> PlacesFileBuilder {
        var strings: [UInt8] = []
        func string(_ text: String) -> UInt32 {
            let ref = UInt32(strings.count)
            strings += le16(UInt16(text.utf8.count)) + Array(text.utf8)
            return ref
        }
        let country = string("Testland"), zone = string("Etc/UTC"), region = string("North Region")
        let county = string("Alpha County")
        let name = string("Alpha"), key = string("alpha")
        let vector = PlacesTables.unitVector(latitude: 10.1, longitude: 10.1)

        var grid = [UInt8](repeating: 0, count: 720 * 360 * 4)
        func setCell(latitude: Double, longitude: Double, _ entry: UInt32) {
            let index = (Int((latitude + 90) * 2) * 720 + Int((longitude + 180) * 2)) * 4
            grid.replaceSubrange(index..<(index + 4), with: le32(entry))
        }
        setCell(latitude: 10.1, longitude: 10.1, 1 << 30)
        setCell(latitude: 10.1, longitude: 10.6, 2 << 30)

        return PlacesFileBuilder(sections: [
            ("META", Array(#"{"test": true}"#.utf8)),
            ("STRS", strings),
            ("CTRY", Array("TL".utf8) + le16(0) + le32(country) + le32(0) + le32(1)),
            ("TZNS", le32(zone)),
            ("ADM1", le16(0) + le16(0) + le32(region)),
            ("ADM2", le16(0) + le16(0) + le32(county)),
            ("PLCE", leFloat(vector.x) + leFloat(vector.y) + leFloat(vector.z) + [0, 0] + le16(0) + le32(5000)
                + le32(name) + le16(0) + le16(0) + le32(0)),
            ("PAD2", le16(0)),
            ("NIDX", le32(key) + le32(0)),
            ("GRID", grid),
            ("CELL", le32(0) + le16(1) + le16(0)),
            // Sub-cell centres north-west of the line (y > x / 2): 0, 4–6, 8–15.
            ("PART", le16(0) + le16(0xFF71) + le32(0) + le32(1)),
            ("LINE", le32(0) + le32(2)),
            ("PNTS", le16(0) + le16(0) + le16(65535) + le16(32767)),
        ])
    }

    /// The file's bytes: header, directory, then each section on an 8-byte boundary.
    func bytes() -> [UInt8] {
        var out = Array("CLPLACES".utf8) + le32(version) + le32(UInt32(sections.count))
        var offset = 16 + 24 * sections.count
        var bodies: [UInt8] = []
        for (tag, bytes) in sections {
            offset = (offset + 7) & ~7
            out += Array(tag.utf8) + le32(0) + le64(UInt64(offset)) + le64(UInt64(bytes.count))
            offset += bytes.count
        }
        for (_, bytes) in sections {
            while (out.count + bodies.count) % 8 != 0 { bodies.append(0) }
            bodies += bytes
        }
        return out + bodies
    }

    /// The file offset of a section's first byte in `bytes()`.
    func offset(of tag: String) -> Int {
        var offset = 16 + 24 * sections.count
        for section in sections {
            offset = (offset + 7) & ~7
            if section.tag == tag { return offset }
            offset += section.bytes.count
        }
        preconditionFailure("no section \(tag)")
    }

    mutating func replace(_ tag: String, with bytes: [UInt8]) {
        let index = sections.firstIndex { $0.tag == tag }!
        sections[index].bytes = bytes
    }

    /// Overwrites bytes inside a section (at `offset` from its start).
    mutating func patch(_ tag: String, at offset: Int, _ bytes: [UInt8]) {
        let index = sections.firstIndex { $0.tag == tag }!
        sections[index].bytes.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    }
}

func le16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
func le64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
func leFloat(_ value: Float) -> [UInt8] { le32(value.bitPattern) }
