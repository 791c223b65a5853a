import LocationNMEA
import SeededRandom
import Testing

/// The statistics counter a damaged input must land in.
enum Counter: String, Sendable, CustomTestStringConvertible {
    case badChecksum, missingChecksum, malformed, overlong, unsupported, sentences
    var testDescription: String { rawValue }

    func value(_ s: NMEAStatistics) -> Int {
        switch self {
        case .badChecksum: s.badChecksum
        case .missingChecksum: s.missingChecksum
        case .malformed: s.malformed
        case .overlong: s.overlong
        case .unsupported: s.unsupported
        case .sentences: s.sentences
        }
    }
}

/// A GGA with one field replaced (0-based, after the address), with a correct checksum.
private func gga(replacing index: Int, with value: String) -> String {
    var fields = "GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,".split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    fields[index + 1] = value
    return sentence(fields.joined(separator: ","))
}

private func rmc(replacing index: Int, with value: String) -> String {
    var fields = "GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W,A".split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    fields[index + 1] = value
    return sentence(fields.joined(separator: ","))
}

/// Every class of damage is rejected, counted, and costs nothing but itself: the good epoch right
/// after it is decoded in full.
@Suite struct MalformedInputTests {
    /// The good input that follows each damaged one.
    static let good = lines(goodEpoch("123520.00", minutes: "07.500"))

    static func checkGoodEpochSurvives(_ result: Decoded, _ label: String) {
        let fix = result.fixes.last
        #expect(fix?.latitude == degrees(48, 7.5), "\(label): the next good epoch was lost")
        #expect(fix?.timeOfDay == 45320, "\(label)")
        #expect(fix?.speed != nil, "\(label): its RMC was lost")
    }

    static let damaged: [(String, String, Counter)] = [
        // Checksums.
        ("wrong checksum", sentence("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,").dropLast(2) + "00\r\n", .badChecksum),
        ("one flipped character", sentence("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,").replacingOccurrences("4807", "4817") + "\r\n", .badChecksum),
        ("no checksum", "$GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,\r\n", .missingChecksum),
        ("checksum cut to one digit", String(sentence("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,").dropLast()) + "\r\n", .malformed),
        ("checksum not hex", "$GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*G1\r\n", .malformed),
        // Truncation.
        ("cut mid-field, line end", "$GPGGA,123519.00,4807.0\r\n", .missingChecksum),
        ("cut mid-field, runs into the next sentence", "$GPGGA,123519.00,4807.0", .badChecksum),
        ("too few fields", sentence("GPGGA,123519.00,4807.038,N,01131.000") + "\r\n", .malformed),
        ("RMC too few fields", sentence("GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4") + "\r\n", .malformed),
        ("GSA too few fields", sentence("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3") + "\r\n", .malformed),
        ("address only", sentence("GPGGA") + "\r\n", .malformed),
        ("address too short", sentence("GPGG") + "\r\n", .malformed),
        ("address too long", sentence("GPGGAA,1") + "\r\n", .malformed),
        ("lowercase address", sentence("gpgga,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + "\r\n", .malformed),
        ("a lone start character", "$\r\n", .missingChecksum),
        // Overlong and binary.
        ("overlong line", "$GPGGA," + String(repeating: "1", count: 400) + "\r\n", .overlong),
        ("overlong line running into a sentence", "$GPGGA," + String(repeating: "9", count: 300), .overlong),
        ("control character", sentence("GPGGA,1235\u{01}19.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + "\r\n", .malformed),
        ("non-ASCII byte", sentence("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,é") + "\r\n", .malformed),
        // Out-of-range and malformed values.
        ("latitude above 90", gga(replacing: 1, with: "9107.038") + "\r\n", .malformed),
        ("latitude exactly 90 with minutes", gga(replacing: 1, with: "9000.001") + "\r\n", .malformed),
        ("latitude minutes 60", gga(replacing: 1, with: "4860.000") + "\r\n", .malformed),
        ("longitude above 180", gga(replacing: 3, with: "18100.000") + "\r\n", .malformed),
        ("latitude with two points", gga(replacing: 1, with: "4807.03.8") + "\r\n", .malformed),
        ("latitude too few digits", gga(replacing: 1, with: "48.038") + "\r\n", .malformed),
        ("negative latitude field", gga(replacing: 1, with: "-4807.038") + "\r\n", .malformed),
        ("hemisphere X", gga(replacing: 2, with: "X") + "\r\n", .malformed),
        ("hemisphere without a latitude", gga(replacing: 1, with: "") + "\r\n", .malformed),
        ("hour 24", gga(replacing: 0, with: "243519.00") + "\r\n", .malformed),
        ("minute 60", gga(replacing: 0, with: "126019.00") + "\r\n", .malformed),
        ("second 61", gga(replacing: 0, with: "123561.00") + "\r\n", .malformed),
        ("time too short", gga(replacing: 0, with: "12351") + "\r\n", .malformed),
        ("time fraction without digits", gga(replacing: 0, with: "123519.") + "\r\n", .malformed),
        ("negative satellite count", gga(replacing: 6, with: "-8") + "\r\n", .malformed),
        ("quality two digits", gga(replacing: 5, with: "12") + "\r\n", .malformed),
        ("negative HDOP", gga(replacing: 7, with: "-0.9") + "\r\n", .malformed),
        ("altitude not a number", gga(replacing: 8, with: "abc") + "\r\n", .malformed),
        ("altitude with 19 digits", gga(replacing: 8, with: "1234567890123456789") + "\r\n", .malformed),
        ("altitude out of range", gga(replacing: 8, with: "2000000") + "\r\n", .malformed),
        ("altitude unit F", gga(replacing: 9, with: "F") + "\r\n", .malformed),
        ("quality 1 without a position", sentence("GPGGA,123519.00,,,,,1,08,0.9,545.4,M,46.9,M,,") + "\r\n", .malformed),
        ("RMC status X", rmc(replacing: 1, with: "X") + "\r\n", .malformed),
        ("RMC negative speed", rmc(replacing: 6, with: "-1.0") + "\r\n", .malformed),
        ("RMC course 361", rmc(replacing: 7, with: "361.0") + "\r\n", .malformed),
        ("RMC day 32", rmc(replacing: 8, with: "320194") + "\r\n", .malformed),
        ("RMC 29 February 2023", rmc(replacing: 8, with: "290223") + "\r\n", .malformed),
        ("RMC month 13", rmc(replacing: 8, with: "011394") + "\r\n", .malformed),
        ("RMC date five digits", rmc(replacing: 8, with: "23039") + "\r\n", .malformed),
        ("GSA mode 4", sentence("GPGSA,A,4,04,05,,09,12,,,24,,,,,2.5,1.3,2.1") + "\r\n", .malformed),
        ("GSA selection X", sentence("GPGSA,X,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1") + "\r\n", .malformed),
        ("GSV number beyond count", sentence("GPGSV,2,3,08,01,40,083,46") + "\r\n", .malformed),
        ("GSV count 0", sentence("GPGSV,0,0,08") + "\r\n", .malformed),
        ("ZDA month 13", sentence("GPZDA,123519.00,01,13,2024,00,00") + "\r\n", .malformed),
        ("ZDA two-digit year", sentence("GPZDA,123519.00,01,12,24,00,00") + "\r\n", .malformed),
        ("GST negative sigma", sentence("GPGST,123519.00,1.1,2.0,1.0,45.0,-1.5,1.2,2.4") + "\r\n", .malformed),
        ("HDT above 360", sentence("GPHDT,361.0,T") + "\r\n", .malformed),
        ("VTG unit letters wrong", sentence("GPVTG,054.7,X,034.4,M,005.5,N,010.2,K,A") + "\r\n", .malformed),
        // Valid but not decoded.
        ("proprietary", sentence("PUBX,00,123519.00,4807.03800,N,01131.00000,E,545.4,G3,2.1,3.4,0.0,0.0,0.0,,0.9,1.3,0.9,8,0,0") + "\r\n", .unsupported),
        ("AIS encapsulation", sentence("AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0", start: "!") + "\r\n", .unsupported),
        ("text", sentence("GPTXT,01,01,02,ANTSTATUS=OK") + "\r\n", .unsupported),
        ("an unknown sentence", sentence("GPXTE,A,A,0.67,L,N") + "\r\n", .unsupported),
    ]

    @Test(arguments: damaged)
    func damagedInputIsCountedAndTheNextEpochSurvives(label: String, input: String, counter: Counter) {
        let result = decode(input + Self.good)
        #expect(counter.value(result.statistics) == 1, "\(label): \(result.statistics)")
        #expect(result.statistics.sentences == 3, "\(label): only the good epoch's sentences")
        #expect(result.fixes.count == 1, "\(label)")
        Self.checkGoodEpochSurvives(result, label)
    }

    @Test func missingChecksumsAreAcceptedWhenAllowed() throws {
        let input = "$GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,\r\n"
        let result = decode(input, options: .init(allowMissingChecksum: true))
        #expect(result.statistics.missingChecksum == 0)
        #expect(result.fixes.first?.latitude == degrees(48, 7.038))
        // Still strict about what is left: a line cut short, or one that ran into the next.
        let truncated = decode("$GPGGA,123519.00,4807.0\r\n" + Self.good, options: .init(allowMissingChecksum: true))
        #expect(truncated.statistics.malformed == 1)
        Self.checkGoodEpochSurvives(truncated, "truncated")
        let runOn = decode("$GPGGA,123519.00,4807.0" + Self.good, options: .init(allowMissingChecksum: true))
        #expect(runOn.statistics.badChecksum == 1)
        Self.checkGoodEpochSurvives(runOn, "run-on")
    }

    @Test func lowercaseChecksumsAreValid() {
        let line = sentence("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        #expect(decode(line.lowercased().replacingOccurrences("$gpgga", "$GPGGA").replacingOccurrences(",n,", ",N,")
            .replacingOccurrences(",e,", ",E,").replacingOccurrences(",m,", ",M,") + "\r\n").fixes.count == 1)
    }

    @Test func emptyFieldsAreUnknownValuesNotErrors() {
        let result = decode(lines(["GPGGA,,,,,,,,,,,,,,", "GPRMC,,,,,,,,,,,,", "GPGSA,,,,,,,,,,,,,,,,,", "GPVTG,,,,,,,,,", "GPGST,,,,,,,,"]))
        #expect(result.statistics.sentences == 5)
        #expect(result.statistics.malformed == 0)
        #expect(result.events == [.noFix(timeOfDay: nil)])
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func binaryGarbageIsSkippedUpToTheNextSentence(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let garbage = (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let result = decode(garbage + Array(Self.good.utf8))
        #expect(result.statistics.sentences == 3)
        Self.checkGoodEpochSurvives(result, "seed \(seed)")
        #expect(result.statistics.skippedBytes > 3000)
    }

    @Test func ubxBinaryBetweenSentencesIsSkipped() throws {
        // u-blox receivers interleave UBX binary frames (0xB5 0x62 …) with NMEA on the same port.
        let ubx: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x5C, 0x00] + Array(repeating: 0x24, count: 3) + (0..<92).map { UInt8($0) } + [0x4E, 0x21]
        let bytes = Array(lines(goodEpoch("123519.00")).utf8) + ubx + Array(Self.good.utf8)
        let result = decode(bytes)
        #expect(result.fixes.count == 2)
        Self.checkGoodEpochSurvives(result, "ubx")
    }

    @Test(arguments: ["\r\n", "\n", "\r"])
    func lineEnds(ending: String) {
        let text = goodEpoch("123519.00").map { sentence($0) + ending }.joined() + Self.good.replacingOccurrences("\r\n", ending)
        let result = decode(text)
        #expect(result.fixes.count == 2)
        #expect(result.statistics.sentences == 6)
        #expect(result.statistics.skippedBytes == 0)
    }

    @Test func longestAcceptedLine() {
        // Exactly the limit is accepted (a proprietary sentence padded to it); one more is overlong.
        let body = "PXXXX," + String(repeating: "A", count: NMEADecoder.maximumLineLength - 10)
        let line = sentence(body)
        #expect(line.utf8.count == NMEADecoder.maximumLineLength)
        #expect(decode(line + "\r\n").statistics.unsupported == 1)
        let longer = sentence(body + "A")
        #expect(decode(longer + "\r\n").statistics.overlong == 1)
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
