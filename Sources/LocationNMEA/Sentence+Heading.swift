/// HDT (`heading, T`) and THS (`heading, mode`): true heading from a compass or a dual-antenna receiver.
enum Heading {
    @inline(__always) static func hdt(_ c: inout FieldCursor) throws(Malformed) -> Double? {
        let heading = normalizedAngle(try c.next().optionalDecimal(signed: false, in: Limits.angle))
        try c.next().expect(emptyOr: UInt8(ascii: "T"))
        return heading
    }

    /// THS modes: `A` autonomous, `E` estimated, `M` manual, `S` simulator, `V` not valid.
    @inline(__always) static func ths(_ c: inout FieldCursor) throws(Malformed) -> Double? {
        let heading = normalizedAngle(try c.next().optionalDecimal(signed: false, in: Limits.angle))
        let mode = try c.next().character()
        return mode == UInt8(ascii: "V") ? nil : heading
    }
}
