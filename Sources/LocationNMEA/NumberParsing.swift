// Hand-written number parsing on a field's bytes: no String, no allocation, strict formats.

/// Exact powers of ten (all representable in a Double up to 10^22).
@inline(__always) func powerOfTen(_ n: Int) -> Double {
    switch n {
    case 0: return 1
    case 1: return 1e1
    case 2: return 1e2
    case 3: return 1e3
    case 4: return 1e4
    case 5: return 1e5
    case 6: return 1e6
    case 7: return 1e7
    case 8: return 1e8
    case 9: return 1e9
    case 10: return 1e10
    case 11: return 1e11
    case 12: return 1e12
    case 13: return 1e13
    case 14: return 1e14
    case 15: return 1e15
    case 16: return 1e16
    case 17: return 1e17
    default: return 1e18
    }
}

extension Field {
    /// A decimal number: optional sign (when `signed`), digits, optional `.` and digits; at least
    /// one digit, at most 18. Exact to the last bit: the integer mantissa (< 2^63, and below 2^53
    /// for the ≤ 15 significant digits NMEA uses) is divided once by an exact power of ten.
    @inline(__always) func decimal(signed: Bool) throws(Malformed) -> Double {
        var i = start
        var negative = false
        if signed, i < end {
            let b = base.load(fromByteOffset: i, as: UInt8.self)
            if b == UInt8(ascii: "-") { negative = true; i &+= 1 } else if b == UInt8(ascii: "+") { i &+= 1 }
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var point = -1
        while i < end {
            let b = base.load(fromByteOffset: i, as: UInt8.self)
            let d = b &- UInt8(ascii: "0")
            if d < 10 {
                mantissa = mantissa &* 10 &+ UInt64(d)
                digits &+= 1
            } else if b == UInt8(ascii: "."), point < 0 {
                point = digits
            } else {
                throw Malformed()
            }
            i &+= 1
        }
        guard digits > 0, digits <= 18 else { throw Malformed() }
        var value = Double(mantissa)
        if point >= 0, digits > point { value /= powerOfTen(digits &- point) }
        return negative ? -value : value
    }

    /// Empty ⇒ nil; else a decimal as in `decimal(signed:)` within `range`.
    @inline(__always) func optionalDecimal(signed: Bool, in range: ClosedRange<Double>) throws(Malformed) -> Double? {
        if isEmpty { return nil }
        let value = try decimal(signed: signed)
        guard range.contains(value) else { throw Malformed() }
        return value
    }

    /// A dilution of precision: empty or 0 (what some receivers send when they have none) ⇒ nil.
    @inline(__always) func optionalDOP() throws(Malformed) -> Double? {
        guard let value = try optionalDecimal(signed: false, in: 0...9999) else { return nil }
        return value > 0 ? value : nil
    }

    /// An unsigned integer of 1...`maxDigits` digits; empty ⇒ nil.
    @inline(__always) func optionalCount(maxDigits: Int) throws(Malformed) -> Int? {
        if isEmpty { return nil }
        guard count <= maxDigits else { throw Malformed() }
        var value = 0
        var i = start
        while i < end {
            let d = base.load(fromByteOffset: i, as: UInt8.self) &- UInt8(ascii: "0")
            guard d < 10 else { throw Malformed() }
            value = value &* 10 &+ Int(d)
            i &+= 1
        }
        return value
    }

    /// Exactly `n` digits starting at `offset` (n ≤ 4): for dates and times.
    @inline(__always) func digits(at offset: Int, _ n: Int) throws(Malformed) -> Int {
        var value = 0
        for k in 0..<n {
            let d = self[offset &+ k] &- UInt8(ascii: "0")
            guard d < 10 else { throw Malformed() }
            value = value &* 10 &+ Int(d)
        }
        return value
    }

    /// `hhmmss` with an optional fraction (`.s`, `.ss`, `.sss`, … — digits past the sixth are
    /// ignored) as microseconds since midnight; empty ⇒ nil. Hours < 24, minutes < 60, seconds ≤ 60
    /// (a leap second).
    @inline(__always) func optionalTimeOfDay() throws(Malformed) -> Int64? {
        if isEmpty { return nil }
        guard count >= 6 else { throw Malformed() }
        let hours = try digits(at: 0, 2)
        let minutes = try digits(at: 2, 2)
        let seconds = try digits(at: 4, 2)
        guard hours < 24, minutes < 60, seconds <= 60 else { throw Malformed() }
        var micros = 0
        if count > 6 {
            guard self[6] == UInt8(ascii: "."), count > 7 else { throw Malformed() }
            var scale = 100_000
            var i = start &+ 7
            while i < end {
                let d = base.load(fromByteOffset: i, as: UInt8.self) &- UInt8(ascii: "0")
                guard d < 10 else { throw Malformed() }
                micros &+= Int(d) &* scale
                scale /= 10
                i &+= 1
            }
        }
        return Int64((hours &* 3600 &+ minutes &* 60 &+ seconds) &* 1_000_000 &+ micros)
    }

    /// RMC's `ddmmyy` as days since 1970-01-01; empty ⇒ nil. Years 80–99 are 1980–1999, 00–79 are
    /// 2000–2079 (GPS began in 1980).
    @inline(__always) func optionalRMCDate() throws(Malformed) -> Int? {
        if isEmpty { return nil }
        guard count == 6 else { throw Malformed() }
        let day = try digits(at: 0, 2)
        let month = try digits(at: 2, 2)
        let yy = try digits(at: 4, 2)
        return try CivilDate.days(year: yy >= 80 ? 1900 + yy : 2000 + yy, month: month, day: day)
    }

    /// A latitude or longitude `d…dmm.m…` with its hemisphere field; both empty ⇒ nil.
    /// Degrees ≤ 90 (180), minutes < 60, the hemisphere `N`/`S` (`E`/`W`).
    @inline(__always) static func coordinate(_ value: Field, _ hemisphere: Field, latitude: Bool) throws(Malformed) -> Double? {
        if value.isEmpty, hemisphere.isEmpty { return nil }
        guard hemisphere.count == 1 else { throw Malformed() }
        let h = hemisphere[0]
        let negative: Bool
        if latitude {
            guard h == UInt8(ascii: "N") || h == UInt8(ascii: "S") else { throw Malformed() }
            negative = h == UInt8(ascii: "S")
        } else {
            guard h == UInt8(ascii: "E") || h == UInt8(ascii: "W") else { throw Malformed() }
            negative = h == UInt8(ascii: "W")
        }
        // Integer part: degrees and whole minutes.
        var i = value.start
        let end = value.end
        var whole = 0
        var wholeDigits = 0
        while i < end {
            let d = value.base.load(fromByteOffset: i, as: UInt8.self) &- UInt8(ascii: "0")
            if d >= 10 { break }
            whole = whole &* 10 &+ Int(d)
            wholeDigits &+= 1
            i &+= 1
        }
        guard wholeDigits >= 3, wholeDigits <= (latitude ? 4 : 5) else { throw Malformed() }
        var fraction: UInt64 = 0
        var fractionDigits = 0
        if i < end {
            guard value.base.load(fromByteOffset: i, as: UInt8.self) == UInt8(ascii: ".") else { throw Malformed() }
            i &+= 1
            while i < end {
                let d = value.base.load(fromByteOffset: i, as: UInt8.self) &- UInt8(ascii: "0")
                guard d < 10 else { throw Malformed() }
                fraction = fraction &* 10 &+ UInt64(d)
                fractionDigits &+= 1
                i &+= 1
            }
            guard fractionDigits <= 15 else { throw Malformed() }
        }
        let degrees = whole / 100
        let wholeMinutes = whole % 100
        guard wholeMinutes < 60 else { throw Malformed() }
        let limit = latitude ? 90 : 180
        guard degrees < limit || (degrees == limit && wholeMinutes == 0 && fraction == 0) else { throw Malformed() }
        var minutes = Double(wholeMinutes)
        if fractionDigits > 0 { minutes += Double(fraction) / powerOfTen(fractionDigits) }
        let result = Double(degrees) + minutes / 60
        return negative ? -result : result
    }
}
