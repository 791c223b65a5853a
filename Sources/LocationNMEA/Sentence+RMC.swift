/// RMC, recommended minimum data:
/// `time, status A/V, lat, N/S, lon, E/W, speed (knots), course, ddmmyy, magnetic variation, E/W[, mode[, nav status]]`.
/// The NMEA 4.1 navigational status is not a validity flag (u-blox always sends `V`, "not provided").
struct RMC {
    var timeOfDay: Int64?
    /// Status `A` and a mode other than `N`.
    var valid: Bool
    var latitude: Double?
    var longitude: Double?
    var speedKnots: Double?
    var course: Double?
    /// Days since 1970-01-01.
    var date: Int?
    /// The NMEA 2.3 mode indicator (`A` autonomous, `D` differential, `E` dead reckoning, …), 0 if absent.
    var mode: UInt8

    @inline(__always) init(_ c: inout FieldCursor) throws(Malformed) {
        timeOfDay = try c.next().optionalTimeOfDay()
        let status = try c.next().character()
        guard status == nil || status == UInt8(ascii: "A") || status == UInt8(ascii: "V") else { throw Malformed() }
        latitude = try Field.coordinate(c.next(), c.next(), latitude: true)
        longitude = try Field.coordinate(c.next(), c.next(), latitude: false)
        speedKnots = try c.next().optionalDecimal(signed: false, in: Limits.speed)
        course = normalizedAngle(try c.next().optionalDecimal(signed: false, in: Limits.angle))
        date = try c.next().optionalRMCDate()
        mode = 0
        // Magnetic variation and its direction (not used), then the NMEA 2.3 and 4.1 additions.
        if c.nextIfPresent() != nil, c.nextIfPresent() != nil, let modeField = c.nextIfPresent() {
            mode = try modeField.character() ?? 0
            _ = try c.nextIfPresent()?.character()
        }
        valid = status == UInt8(ascii: "A") && mode != UInt8(ascii: "N")
        if valid, latitude == nil || longitude == nil { throw Malformed() }
    }
}
