/// VTG, course and speed over ground:
/// `course, T, magnetic course, M, speed, N, speed, K[, mode]` (NMEA 2+), or the NMEA 1.5 form
/// without the unit letters, `course, magnetic course, knots, km/h`.
struct VTG {
    var course: Double?
    var speedKnots: Double?
    var speedKmh: Double?
    /// False when the mode indicator is `N` (not valid).
    var valid: Bool

    @inline(__always) init(_ c: inout FieldCursor) throws(Malformed) {
        let modern = c.remainingCount >= 8
        course = normalizedAngle(try c.next().optionalDecimal(signed: false, in: Limits.angle))
        if modern {
            try c.next().expect(emptyOr: UInt8(ascii: "T"))
            _ = try c.next().optionalDecimal(signed: false, in: Limits.angle)
            try c.next().expect(emptyOr: UInt8(ascii: "M"))
            speedKnots = try c.next().optionalDecimal(signed: false, in: Limits.speed)
            try c.next().expect(emptyOr: UInt8(ascii: "N"))
            speedKmh = try c.next().optionalDecimal(signed: false, in: Limits.speed)
            try c.next().expect(emptyOr: UInt8(ascii: "K"))
            valid = try c.nextIfPresent()?.character() != UInt8(ascii: "N")
        } else {
            _ = try c.next().optionalDecimal(signed: false, in: Limits.angle)
            speedKnots = try c.next().optionalDecimal(signed: false, in: Limits.speed)
            speedKmh = try c.next().optionalDecimal(signed: false, in: Limits.speed)
            valid = true
        }
    }
}
