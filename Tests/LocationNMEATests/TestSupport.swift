import Foundation
import LocationNMEA
import Testing

/// What a decoder produced for some input.
struct Decoded {
    var events: [NMEAEvent] = []
    var statistics = NMEAStatistics()

    var fixes: [NMEAFix] {
        events.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
    }
    var noFixCount: Int {
        events.count { if case .noFix = $0 { true } else { false } }
    }
}

/// Decodes `bytes` in one `feed`, then `finish`.
func decode(_ bytes: [UInt8], options: NMEADecoder.Options = .init()) -> Decoded {
    var decoder = NMEADecoder(options: options)
    var result = Decoded()
    decoder.feed(bytes) { result.events.append($0) }
    decoder.finish { result.events.append($0) }
    result.statistics = decoder.statistics
    return result
}

func decode(_ text: String, options: NMEADecoder.Options = .init()) -> Decoded {
    decode(Array(text.utf8), options: options)
}

/// Decodes `bytes` split into chunks of the given sizes (cycled), then `finish`.
func decode(_ bytes: [UInt8], chunks sizes: [Int], options: NMEADecoder.Options = .init()) -> Decoded {
    var decoder = NMEADecoder(options: options)
    var result = Decoded()
    var offset = 0
    var k = 0
    while offset < bytes.count {
        let size = min(max(sizes[k % sizes.count], 1), bytes.count - offset)
        decoder.feed(bytes[offset..<offset + size]) { result.events.append($0) }
        offset += size
        k += 1
    }
    decoder.finish { result.events.append($0) }
    result.statistics = decoder.statistics
    return result
}

/// `$<body>*hh` with the correct checksum.
func sentence(_ body: String, start: String = "$") -> String {
    let checksum = body.utf8.reduce(UInt8(0), ^)
    let hex = String(checksum, radix: 16, uppercase: true)
    return start + body + "*" + (hex.count == 1 ? "0" + hex : hex)
}

/// Sentences joined with CRLF, each with its checksum.
func lines(_ bodies: [String]) -> String {
    bodies.map { sentence($0) + "\r\n" }.joined()
}

/// A fixture file's bytes.
func fixture(_ name: String) throws -> [UInt8] {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    return try Array(Data(contentsOf: url))
}

let fixtureNames = [
    "ublox-m8n-gps-glonass.nmea", "sirf-star4-gps.nmea", "quectel-multi-gnss-nmea411.nmea", "rtk-gst-zda.nmea",
    "gga-then-rmc-date.nmea", "midnight-rollover-zda.nmea", "ublox-cold-start.nmea", "ublox-5hz.nmea",
]

/// Unix seconds of a UTC date and time.
func unixTime(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Double) -> Double {
    Double(CivilDate.daysFromCivil(year: year, month: month, day: day)) * 86_400
        + Double(hour * 3600 + minute * 60) + second
}

/// Degrees from NMEA's degrees and decimal minutes.
func degrees(_ d: Double, _ minutes: Double) -> Double { d + minutes / 60 }

/// A good GPS epoch (GGA, GSA, RMC) at `time` (hhmmss.ss) with a given latitude in minutes past 48°.
func goodEpoch(_ time: String, minutes: String = "07.038", date: String = "230394") -> [String] {
    [
        "GPGGA,\(time),48\(minutes),N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
        "GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1",
        "GPRMC,\(time),A,48\(minutes),N,01131.000,E,022.4,084.4,\(date),003.1,W",
    ]
}
