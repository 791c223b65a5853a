// Line framing and checksum validation, on the caller's bytes.

/// Where a scan stopped.
enum ScanStop {
    /// Everything before this position is decided; continue from here.
    case reached(Int)
    /// The line starting here has no line end yet and is shorter than the limit: wait for more bytes.
    case needMore(Int)
}

extension NMEADecoder {
    /// Decodes every line that starts in `from..<startLimit` and can be decided within `0..<count`.
    /// With `final`, the end of the bytes also ends a line.
    @inline(__always)
    mutating func scan(
        _ p: UnsafeRawPointer, count: Int, from: Int, startLimit: Int, final: Bool, onEvent: (NMEAEvent) -> Void
    ) -> ScanStop {
        var i = from
        while true {
            // Skip to the next start character.
            while i < startLimit {
                let b = p.load(fromByteOffset: i, as: UInt8.self)
                if b == UInt8(ascii: "$") || b == UInt8(ascii: "!") { break }
                if b != 0x0D, b != 0x0A { statistics.skippedBytes &+= 1 }
                i &+= 1
            }
            if i >= startLimit { return .reached(i) }
            let start = i
            // Find the end of the line: the first byte that is not printable ASCII, XOR-ing the rest.
            let windowEnd = min(count, start &+ NMEADecoder.maximumLineLength &+ 1)
            var end = start &+ 1
            let xor = NMEADecoder.scanPrintable(p, from: &end, before: windowEnd)
            if end == windowEnd {
                if windowEnd == start &+ NMEADecoder.maximumLineLength &+ 1 {
                    statistics.overlong &+= 1
                    i = NMEADecoder.nextStart(p, from: start &+ 1, before: end) ?? end
                    continue
                }
                if !final { return .needMore(start) }
            } else {
                let b = p.load(fromByteOffset: end, as: UInt8.self)
                if b != 0x0D, b != 0x0A {
                    // A control character or a non-ASCII byte inside the line.
                    statistics.malformed &+= 1
                    i = NMEADecoder.nextStart(p, from: start &+ 1, before: end) ?? end
                    continue
                }
            }
            if decodeLine(p, start: start, end: end, xor: xor, onEvent: onEvent) {
                i = end
            } else {
                i = NMEADecoder.nextStart(p, from: start &+ 1, before: end) ?? end
            }
        }
    }

    /// Advances `i` to the first byte in `i..<end` that is not printable ASCII (0x20…0x7E), or to
    /// `end`, and returns the XOR of the bytes passed over. Eight bytes at a time: a byte below 0x20
    /// sets its top bit in `(w - 0x20…) & ~w`, a byte above 0x7E in `(w + 0x01…) | w`; borrows and
    /// carries only move towards later bytes, so the first flagged byte is exact.
    @inline(__always)
    static func scanPrintable(_ p: UnsafeRawPointer, from i: inout Int, before end: Int) -> UInt8 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var x: UInt64 = 0
        var position = i
        while position &+ 8 <= end {
            let w = p.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            let flags = (((w &- ones &* 0x20) & ~w) | ((w &+ ones) | w)) & highs
            if flags != 0 {
                let printable = flags.trailingZeroBitCount >> 3
                x ^= w & ((1 &<< UInt64(printable &* 8)) &- 1)
                position &+= printable
                i = position
                return fold(x)
            }
            x ^= w
            position &+= 8
        }
        var tail = fold(x)
        while position < end {
            let b = p.load(fromByteOffset: position, as: UInt8.self)
            if b &- 0x20 > 0x5E { break }
            tail ^= b
            position &+= 1
        }
        i = position
        return tail
    }

    /// XOR of the eight bytes of a word.
    @inline(__always) static func fold(_ w: UInt64) -> UInt8 {
        var x = w ^ (w >> 32)
        x ^= x >> 16
        x ^= x >> 8
        return UInt8(truncatingIfNeeded: x)
    }

    /// The first `$` or `!` in `from..<before`: where a line that ran into another one resumes.
    @inline(__always)
    static func nextStart(_ p: UnsafeRawPointer, from: Int, before: Int) -> Int? {
        var i = from
        while i < before {
            let b = p.load(fromByteOffset: i, as: UInt8.self)
            if b == UInt8(ascii: "$") || b == UInt8(ascii: "!") { return i }
            i &+= 1
        }
        return nil
    }

    /// The value of an ASCII hex digit (either case), or nil.
    @inline(__always) static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b &- UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b &- UInt8(ascii: "A") &+ 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b &- UInt8(ascii: "a") &+ 10
        default: return nil
        }
    }

    /// Validates and decodes the printable line `start..<end` (`p[start]` is `$` or `!`); `xor` is the
    /// XOR of `start+1..<end`. Returns false when the line was rejected.
    @inline(__always)
    mutating func decodeLine(
        _ p: UnsafeRawPointer, start: Int, end: Int, xor: UInt8, onEvent: (NMEAEvent) -> Void
    ) -> Bool {
        @inline(__always) func byte(_ i: Int) -> UInt8 { p.load(fromByteOffset: i, as: UInt8.self) }
        var payloadEnd = end
        if end &- start >= 4, byte(end &- 3) == UInt8(ascii: "*") {
            let high = byte(end &- 2), low = byte(end &- 1)
            guard let h = NMEADecoder.hexValue(high), let l = NMEADecoder.hexValue(low) else {
                statistics.malformed &+= 1
                return false
            }
            guard xor ^ UInt8(ascii: "*") ^ high ^ low == h << 4 | l else {
                statistics.badChecksum &+= 1
                return false
            }
            payloadEnd = end &- 3
        } else {
            var i = start &+ 1
            while i < end {
                let b = byte(i)
                // A `*` elsewhere is a damaged checksum; without a checksum nothing vouches for the
                // line, so it must not contain another start character either.
                if b == UInt8(ascii: "*") || b == UInt8(ascii: "$") || b == UInt8(ascii: "!") {
                    statistics.malformed &+= 1
                    return false
                }
                i &+= 1
            }
            guard options.allowMissingChecksum else {
                statistics.missingChecksum &+= 1
                return false
            }
        }

        // The address: two talker letters and three formatter letters (`GPGGA`), or `P…` (proprietary).
        let address = start &+ 1
        if byte(start) == UInt8(ascii: "!") || (address < payloadEnd && byte(address) == UInt8(ascii: "P")) {
            statistics.unsupported &+= 1
            return true
        }
        guard payloadEnd &- address >= 5 else {
            statistics.malformed &+= 1
            return false
        }
        let t0 = byte(address), t1 = byte(address &+ 1)
        let f0 = byte(address &+ 2), f1 = byte(address &+ 3), f2 = byte(address &+ 4)
        guard NMEADecoder.isAddressLetter(t0), NMEADecoder.isAddressLetter(t1), NMEADecoder.isAddressLetter(f0),
              NMEADecoder.isAddressLetter(f1), NMEADecoder.isAddressLetter(f2),
              address &+ 5 == payloadEnd || byte(address &+ 5) == UInt8(ascii: ",")
        else {
            statistics.malformed &+= 1
            return false
        }
        guard let type = SentenceType(f0, f1, f2) else {
            statistics.unsupported &+= 1
            return true
        }
        var fields = FieldCursor(base: p, start: address &+ 6, end: payloadEnd, hasFields: address &+ 5 < payloadEnd)
        let sentence: Sentence
        do {
            sentence = try Sentence.parse(type, &fields)
        } catch {
            statistics.malformed &+= 1
            return false
        }
        assembler.accept(sentence, type: type, talker: (t0, t1), statistics: &statistics, onEvent: onEvent)
        return true
    }

    @inline(__always) static func isAddressLetter(_ b: UInt8) -> Bool {
        b &- UInt8(ascii: "A") < 26 || b &- UInt8(ascii: "0") < 10
    }
}
