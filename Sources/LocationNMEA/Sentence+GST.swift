/// GST, pseudorange error statistics: `time, RMS, σ semi-major, σ semi-minor, orientation,
/// σ latitude, σ longitude, σ altitude` (metres, 1σ).
struct GST {
    var timeOfDay: Int64?
    var sigmaLatitude: Double?
    var sigmaLongitude: Double?
    var sigmaAltitude: Double?

    @inline(__always) init(_ c: inout FieldCursor) throws(Malformed) {
        timeOfDay = try c.next().optionalTimeOfDay()
        _ = try c.next().optionalDecimal(signed: false, in: Limits.sigma)
        _ = try c.next().optionalDecimal(signed: false, in: Limits.sigma)
        _ = try c.next().optionalDecimal(signed: false, in: Limits.sigma)
        _ = try c.next().optionalDecimal(signed: false, in: Limits.angle)
        sigmaLatitude = try c.next().optionalDecimal(signed: false, in: Limits.sigma)
        sigmaLongitude = try c.next().optionalDecimal(signed: false, in: Limits.sigma)
        sigmaAltitude = try c.next().optionalDecimal(signed: false, in: Limits.sigma)
    }
}
