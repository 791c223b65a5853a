/// GSA, DOP and active satellites:
/// `A/M, mode 1/2/3, 12 satellite IDs, PDOP, HDOP, VDOP[, system ID]`.
/// Multi-GNSS receivers send one GSA per constellation in each epoch.
struct GSA {
    /// 1 no fix, 2 2D, 3 3D; nil when empty.
    var mode: Int?
    /// Non-empty satellite ID fields.
    var satellitesUsed: Int
    var pdop: Double?
    var hdop: Double?
    var vdop: Double?

    @inline(__always) init(_ c: inout FieldCursor) throws(Malformed) {
        let selection = try c.next().character()
        guard selection == nil || selection == UInt8(ascii: "A") || selection == UInt8(ascii: "M") else { throw Malformed() }
        mode = try c.next().optionalCount(maxDigits: 1)
        if let mode, !(1...3).contains(mode) { throw Malformed() }
        satellitesUsed = 0
        for _ in 0..<12 {
            if try c.next().optionalCount(maxDigits: 3) != nil { satellitesUsed &+= 1 }
        }
        pdop = try c.next().optionalDOP()
        hdop = try c.next().optionalDOP()
        vdop = try c.next().optionalDOP()
    }
}
