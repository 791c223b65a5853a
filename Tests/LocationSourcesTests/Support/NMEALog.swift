import Foundation
import TestSupport

/// A test's own reading of an NMEA log, independent of `LocationNMEA`: each GGA's time of day and,
/// for fix qualities above 0, its position.
struct NMEALogEpoch: Equatable {
    var timeOfDay: Double
    var latitude: Double?
    var longitude: Double?
}

func ggaEpochs(ofFile path: String) throws -> [NMEALogEpoch] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(whereSeparator: \.isNewline).compactMap { line -> NMEALogEpoch? in
        let fields = line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count > 6, fields[0].hasSuffix("GGA"), let time = Double(fields[1]) else { return nil }
        let seconds = (time / 10_000).rounded(.down) * 3600 + ((time / 100).rounded(.down).truncatingRemainder(dividingBy: 100)) * 60
            + time.truncatingRemainder(dividingBy: 100)
        guard let quality = Int(fields[6]), quality > 0,
              let lat = Double(fields[2]), let lon = Double(fields[4]) else {
            return NMEALogEpoch(timeOfDay: seconds)
        }
        func degrees(_ value: Double) -> Double { (value / 100).rounded(.down) + value.truncatingRemainder(dividingBy: 100) / 60 }
        return NMEALogEpoch(timeOfDay: seconds,
                            latitude: degrees(lat) * (fields[3] == "S" ? -1 : 1),
                            longitude: degrees(lon) * (fields[5] == "W" ? -1 : 1))
    }
}

/// An NMEA sentence with its checksum and CRLF.
func nmeaSentence(_ body: String) -> String {
    let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    return "$" + body + "*" + String(format: "%02X", checksum) + "\r\n"
}

/// One epoch of a moving receiver: RMC (with the date), GGA and GSA.
func nmeaEpoch(time: String, date: String? = "140625", lat: String = "4504.21872", lon: String = "00741.21136",
               speedKnots: String = "20.0", course: String = "90.0") -> String {
    nmeaSentence("GPRMC,\(time),A,\(lat),N,\(lon),E,\(speedKnots),\(course),\(date ?? ""),,,A")
        + nmeaSentence("GPGGA,\(time),\(lat),N,\(lon),E,1,09,0.90,245.3,M,47.6,M,,")
        + nmeaSentence("GPGSA,A,3,03,06,09,12,17,19,22,25,28,,,,1.50,0.90,1.20")
}

/// A file with `contents` in `directory` (removed with it).
func temporaryFile(_ contents: String, in directory: TemporaryDirectory, suffix: String = ".nmea") throws -> String {
    let path = directory.url.appendingPathComponent("log-\(UUID().uuidString)\(suffix)").path
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
