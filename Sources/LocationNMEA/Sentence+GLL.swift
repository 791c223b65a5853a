/// GLL, geographic position: `lat, N/S, lon, E/W, time, status A/V[, mode]`.
struct GLL {
    var timeOfDay: Int64?
    var valid: Bool
    var latitude: Double?
    var longitude: Double?
    var mode: UInt8

    @inline(__always) init(_ c: inout FieldCursor) throws(Malformed) {
        latitude = try Field.coordinate(c.next(), c.next(), latitude: true)
        longitude = try Field.coordinate(c.next(), c.next(), latitude: false)
        timeOfDay = try c.next().optionalTimeOfDay()
        let status = try c.next().character()
        guard status == nil || status == UInt8(ascii: "A") || status == UInt8(ascii: "V") else { throw Malformed() }
        mode = try c.nextIfPresent()?.character() ?? 0
        valid = status == UInt8(ascii: "A") && mode != UInt8(ascii: "N")
        if valid, latitude == nil || longitude == nil { throw Malformed() }
    }
}
