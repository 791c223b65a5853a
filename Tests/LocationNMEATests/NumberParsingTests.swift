import Foundation
import LocationNMEA
import SeededRandom
import Testing

/// Hand-written number parsing agrees with Swift's own to the last bit.
@Suite struct NumberParsingTests {
    private func altitude(_ text: String) -> Double? {
        decode(lines(["GPGGA,120000.00,4807.038,N,01131.000,E,1,08,0.9,\(text),M,46.9,M,,"])).fixes.first?.altitudeMSL
    }

    @Test(arguments: ["0", "0.0", "-0.5", "+12.25", "545.4", "-33.9", "12345.678901", "0.000001", "999999.999999999", "7."])
    func decimals(text: String) {
        #expect(altitude(text) == Double(text), "\(text)")
    }

    @Test func randomDecimalsMatchSwiftsParser() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let integer = Int(rng.next() % 20_000)  // within the altitude range
            let decimals = Int(rng.next() % 9)
            let fraction = decimals == 0 ? "" : "." + String(String(rng.next() % 1_000_000_000).suffix(decimals))
                .padding(toLength: decimals, withPad: "0", startingAt: 0)
            let text = (rng.next() % 2 == 0 ? "-" : "") + String(integer) + fraction
            #expect(altitude(text) == Double(text), "\(text)")
        }
    }

    @Test(arguments: [
        ("120000", 43200.0), ("120000.5", 43200.5), ("120000.25", 43200.25), ("120000.125", 43200.125),
        ("120000.1234567", 43200.123456), ("235960.00", 86400), ("000000.00", 0),
    ])
    func timesOfDay(text: String, seconds: Double) {
        let fix = decode(lines(["GPGGA,\(text),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"])).fixes.first
        #expect(fix?.timeOfDay == seconds)
    }

    static let latitudeCases: [(String, String, Double)] = [
        ("4807.038", "N", degrees(48, 7.038)), ("4807.038", "S", -degrees(48, 7.038)), ("0000.0000", "N", 0),
        ("9000.0000", "N", 90), ("807.5", "N", degrees(8, 7.5)), ("4807", "N", degrees(48, 7)),
        ("4807.12345678", "N", degrees(48, 7.12345678)),
    ]

    @Test(arguments: latitudeCases)
    func latitudes(text: String, hemisphere: String, expected: Double) {
        let fix = decode(lines(["GPGGA,120000,\(text),\(hemisphere),01131.000,E,1,08,0.9,545.4,M,46.9,M,,"])).fixes.first
        #expect(fix?.latitude == expected)
    }

    static let longitudeCases: [(String, String, Double)] = [
        ("18000.000", "E", 180), ("18000.000", "W", -180), ("00000.001", "W", -degrees(0, 0.001)), ("12345.6", "E", degrees(123, 45.6)),
    ]

    @Test(arguments: longitudeCases)
    func longitudes(text: String, hemisphere: String, expected: Double) {
        let fix = decode(lines(["GPGGA,120000,4807.038,N,\(text),\(hemisphere),1,08,0.9,545.4,M,46.9,M,,"])).fixes.first
        #expect(fix?.longitude == expected)
    }
}
