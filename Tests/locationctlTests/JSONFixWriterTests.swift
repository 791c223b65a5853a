import Foundation
import LocationCore
@testable import locationctl
import LocationProtocol
import Testing

/// The hand-written JSON writer against Foundation's formatting and parsing.
@Suite struct JSONFixWriterTests {
    private func number(_ value: Double, decimals: Int) -> String {
        String(unsafeUninitializedCapacity: 64) { JSONFixWriter.number(value, decimals: decimals, $0.baseAddress!) }
    }

    @Test(arguments: [
        (0.0, 3, "0.000"), (-0.0, 3, "0.000"), (-0.0004, 3, "0.000"), (-0.0006, 3, "-0.001"), (-1, 3, "-1.000"),
        (52.52, 9, "52.520000000"), (-179.999999999, 9, "-179.999999999"), (8, 3, "8.000"), (0.5, 0, "1"),
        (123456789.0125, 3, "123456789.013"), (.nan, 3, "null"), (.infinity, 9, "null"), (1e300, 3, "1e18"),
    ] as [(Double, Int, String)])
    func numbers(value: Double, decimals: Int, expected: String) {
        #expect(number(value, decimals: decimals) == expected)
    }

    @Test func randomNumbersRoundTripToTheirPrecision() {
        var state: UInt64 = 5
        for _ in 0..<5000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = (Double(state >> 11) * 0x1p-53 - 0.5) * 400
            let text = number(value, decimals: 9)
            #expect(abs(Double(text)! - value) <= 0.5e-9 + 1e-13, "\(value) → \(text)")
            #expect(text == String(format: "%.9f", value) || abs(Double(text)! - Double(String(format: "%.9f", value))!) <= 1e-9)
        }
    }

    @Test func timestampsMatchFoundationsISO8601() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        var state: UInt64 = 11
        // Whole seconds (Foundation truncates fractions, we round them: see below), both sides of 1970,
        // leap days, the end of 2099.
        var seconds: [Double] = [0, -1, 951_782_400, 1_709_164_800, 4_102_444_799, -946_771_200]
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            seconds.append(Double(Int64(state >> 34) % 8_000_000_000 - 2_000_000_000))
        }
        for s in seconds {
            #expect(JSONFixWriter.timestampString(s) == Date(timeIntervalSince1970: s).formatted(style), "\(s)")
        }
    }

    @Test(arguments: [
        (1_727_799_600.2, "2024-10-01T16:20:00.200Z"), (1_727_799_600.125, "2024-10-01T16:20:00.125Z"),
        (1_727_799_600.9996, "2024-10-01T16:20:01.000Z"), (-0.001, "1969-12-31T23:59:59.999Z"),
        (86_399.9994, "1970-01-01T23:59:59.999Z"),
    ])
    func fractionsRoundToTheNearestMillisecond(seconds: Double, expected: String) {
        // 16:20:00.2 is 16:20:00.19999… in binary: truncating would print .199.
        #expect(JSONFixWriter.timestampString(seconds) == expected)
    }

    @Test func aWholeLineParsesAsJSON() throws {
        let fix = Fix(latitude: -33.8567844, longitude: 151.2152967, altitude: -12.5, ellipsoidalAltitude: 9.6,
                      horizontalAccuracy: 4.35, verticalAccuracy: -1, speed: 12.6, speedAccuracy: 0.087,
                      course: 359.9999, courseAccuracy: 0.4, timestamp: Date(timeIntervalSince1970: 1_710_404_071.2),
                      isSimulated: true)
        let line = FixFormatting.json(fix)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["latitude"] as? Double == -33.8567844)
        #expect(object["course"] as? Double == 0, "359.9999 rounds to 0.000, never 360")
        #expect(object["verticalAccuracy"] as? Double == -1)
        #expect(object["timestamp"] as? String == "2024-03-14T08:14:31.200Z")
        #expect(object["simulated"] as? Bool == true)
    }
}
