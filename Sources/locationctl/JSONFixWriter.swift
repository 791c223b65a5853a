import FoundationEssentials
import LocationCore
import LocationNMEA
import LocationProtocol

/// Writes a fix as one line of JSON into a byte buffer: the format of `locate --json`, `watch --json`
/// and `decode --json`. Numbers are formatted by hand with a fixed count of decimals per field (no
/// `String(format:)`, no `DateFormatter`, no allocation), which is what makes `decode --json` fast.
///
/// Keys, in this order: latitude, longitude, altitude, ellipsoidalAltitude, horizontalAccuracy,
/// verticalAccuracy, speed, speedAccuracy, course, courseAccuracy, timestamp (ISO 8601, UTC,
/// milliseconds), simulated.
enum JSONFixWriter {
    /// The most bytes one line can take (with its newline): twelve numbers of at most 40 bytes,
    /// the keys, the timestamp.
    static let maximumLineLength = 640

    /// Writes `fix` and a newline at `p`, which has room for `maximumLineLength` bytes; returns the count.
    static func write(_ fix: Fix, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        n += literal("{\"latitude\":", p + n)
        n += number(fix.latitude, decimals: 9, p + n)
        n += literal(",\"longitude\":", p + n)
        n += number(fix.longitude, decimals: 9, p + n)
        n += literal(",\"altitude\":", p + n)
        n += number(fix.altitude, decimals: 3, p + n)
        n += literal(",\"ellipsoidalAltitude\":", p + n)
        n += number(fix.ellipsoidalAltitude, decimals: 3, p + n)
        n += literal(",\"horizontalAccuracy\":", p + n)
        n += number(fix.horizontalAccuracy, decimals: 3, p + n)
        n += literal(",\"verticalAccuracy\":", p + n)
        n += number(fix.verticalAccuracy, decimals: 3, p + n)
        n += literal(",\"speed\":", p + n)
        n += number(fix.speed, decimals: 3, p + n)
        n += literal(",\"speedAccuracy\":", p + n)
        n += number(fix.speedAccuracy, decimals: 3, p + n)
        n += literal(",\"course\":", p + n)
        n += number(fix.course >= 359.9995 ? fix.course - 360 : fix.course, decimals: 3, p + n)  // never "360.000"
        n += literal(",\"courseAccuracy\":", p + n)
        n += number(fix.courseAccuracy, decimals: 3, p + n)
        n += literal(",\"timestamp\":\"", p + n)
        n += timestamp(fix.timestamp.timeIntervalSince1970, p + n)
        n += literal(fix.isSimulated ? "\",\"simulated\":true}\n" : "\",\"simulated\":false}\n", p + n)
        return n
    }

    /// The JSON line as a String, without its newline.
    static func string(_ fix: Fix) -> String {
        String(unsafeUninitializedCapacity: maximumLineLength) { buffer in
            write(fix, to: buffer.baseAddress!) - 1
        }
    }

    /// ISO 8601 UTC with milliseconds (`2024-03-14T08:14:31.000Z`) as a String.
    static func timestampString(_ unixSeconds: Double) -> String {
        String(unsafeUninitializedCapacity: 48) { buffer in timestamp(unixSeconds, buffer.baseAddress!) }
    }

    @inline(__always) static func literal(_ text: StaticString, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        p.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        return text.utf8CodeUnitCount
    }

    /// "00" "01" … "99": two digits per lookup.
    private static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Writes the last `width` decimal digits of `value` (zero-padded) ending at `p + width`.
    @inline(__always) static func digits(_ value: UInt64, width: Int, _ p: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        var v = value
        var i = width
        while i >= 2 {
            let pair = Int(v % 100) &* 2
            v /= 100
            p[i - 2] = pairs[pair]
            p[i - 1] = pairs[pair + 1]
            i -= 2
        }
        if i == 1 { p[0] = UInt8(ascii: "0") &+ UInt8(v % 10) }
    }

    /// The count of decimal digits of `value` (at least 1).
    @inline(__always) static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// An unsigned integer, no padding.
    @inline(__always) static func integer(_ value: UInt64, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        let width = digitCount(value)
        digits(value, width: width, p)
        return width
    }

    @inline(__always) static func powerOfTen(_ n: Int) -> Double {
        switch n {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        default: return 1_000_000_000
        }
    }

    /// `value` rounded to `decimals` (0…9) places; `null` for NaN and infinities (JSON has none).
    /// Inlined with a constant `decimals`, the scaling and the divisions become multiplications.
    @inline(__always)
    static func number(_ value: Double, decimals: Int, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        guard value.isFinite else { return literal("null", p) }
        let scale = powerOfTen(decimals)
        // Round half away from zero without libm: truncating m + 0.5 for m ≥ 0.
        let scaled = value.magnitude * scale + 0.5
        guard scaled < 1e18 else {
            // Beyond any coordinate, altitude or speed; keep the JSON valid.
            return literal(value < 0 ? "-1e18" : "1e18", p)
        }
        let units = UInt64(scaled)
        var n = 0
        if value < 0, units != 0 {
            p[0] = UInt8(ascii: "-")
            n = 1
        }
        let divisor = UInt64(scale)
        n += integer(units / divisor, p + n)
        if decimals > 0 {
            p[n] = UInt8(ascii: ".")
            digits(units % divisor, width: decimals, p + n + 1)
            n += decimals + 1
        }
        return n
    }

    /// ISO 8601 UTC with milliseconds from Unix seconds, by arithmetic (no calendar objects).
    static func timestamp(_ unixSeconds: Double, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        // Within ±10^14 s (3 million years) the arithmetic below is exact; clamp anything else.
        let clamped = unixSeconds.isFinite ? min(max(unixSeconds, -62_135_596_800), 253_402_300_799.999) : 0
        let milliseconds = Int64((clamped * 1000).rounded())
        var days = milliseconds / 86_400_000
        var inDay = milliseconds % 86_400_000
        if inDay < 0 {
            inDay += 86_400_000
            days -= 1
        }
        let (year, month, day) = CivilDate.civil(fromDays: Int(days))
        digits(UInt64(year), width: 4, p)
        p[4] = UInt8(ascii: "-")
        digits(UInt64(month), width: 2, p + 5)
        p[7] = UInt8(ascii: "-")
        digits(UInt64(day), width: 2, p + 8)
        p[10] = UInt8(ascii: "T")
        let ms = UInt64(inDay)
        digits(ms / 3_600_000, width: 2, p + 11)
        p[13] = UInt8(ascii: ":")
        digits(ms / 60_000 % 60, width: 2, p + 14)
        p[16] = UInt8(ascii: ":")
        digits(ms / 1000 % 60, width: 2, p + 17)
        p[19] = UInt8(ascii: ".")
        digits(ms % 1000, width: 3, p + 20)
        p[23] = UInt8(ascii: "Z")
        return 24
    }
}
