/// GGA, global positioning system fix data:
/// `time, lat, N/S, lon, E/W, quality, satellites used, HDOP, altitude, M, geoid separation, M[, DGPS age, station]`.
struct GGA {
    var timeOfDay: Int64?
    var latitude: Double?
    var longitude: Double?
    /// 0 invalid, 1 GPS, 2 DGPS, 3 PPS, 4 RTK fixed, 5 RTK float, 6 dead reckoning, 7 manual, 8 simulator.
    var quality: Int
    var satellitesUsed: Int?
    var hdop: Double?
    var altitudeMSL: Double?
    var geoidSeparation: Double?

    @inline(__always) init(_ c: inout FieldCursor) throws(Malformed) {
        timeOfDay = try c.next().optionalTimeOfDay()
        latitude = try Field.coordinate(c.next(), c.next(), latitude: true)
        longitude = try Field.coordinate(c.next(), c.next(), latitude: false)
        // An empty quality (seen during cold starts) means no fix.
        quality = try c.next().optionalCount(maxDigits: 1) ?? 0
        satellitesUsed = try c.next().optionalCount(maxDigits: 3)
        hdop = try c.next().optionalDOP()
        altitudeMSL = try c.next().optionalDecimal(signed: true, in: Limits.altitude)
        try c.next().expect(emptyOr: UInt8(ascii: "M"))
        geoidSeparation = try c.next().optionalDecimal(signed: true, in: Limits.geoidSeparation)
        try c.next().expect(emptyOr: UInt8(ascii: "M"))
        // A fix claims a position: one without it is not a fix report.
        if quality > 0, latitude == nil || longitude == nil { throw Malformed() }
    }
}
