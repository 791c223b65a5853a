import Foundation
import LocationCore
import LocationPolicy
import LocationProtocol
import Testing

/// Reduced accuracy: quantised in space and time, never the precise position.
@Suite struct ApproximateLocationTests {
    private func fix(_ lat: Double, _ lon: Double, at seconds: TimeInterval) -> Fix {
        Fix(latitude: lat, longitude: lon, altitude: 30, ellipsoidalAltitude: 70, horizontalAccuracy: 5,
            verticalAccuracy: 3, speed: 12, speedAccuracy: 0.5, course: 80, courseAccuracy: 4,
            timestamp: Date(timeIntervalSince1970: 1_800_000_000 + seconds))
    }

    @Test func snapsToTheCellCentreAndWithholdsMotionAndAltitude() throws {
        var filter = ApproximateLocation()
        let out = try #require(filter.filter(fix(52.5163, 13.3777, at: 0)) as Fix?)
        #expect(out.horizontalAccuracy == ApproximateLocation.reportedAccuracy)
        #expect(out.speed < 0 && out.course < 0 && out.verticalAccuracy < 0)
        #expect(abs(out.latitude - 52.5163) < 0.05 && abs(out.longitude - 13.3777) < 0.1)
        #expect(out.latitude != 52.5163)
    }

    @Test func averagingManyFixesInOneCellRevealsNothing() {
        var filter = ApproximateLocation()
        var outputs: [Fix] = []
        for i in 0..<1000 {
            let jitter = Double(i % 17) * 0.0002
            if let out = filter.filter(fix(48.1371 + jitter, 11.5754 - jitter, at: Double(i) * 10)) { outputs.append(out) }
        }
        #expect(Set(outputs.map { "\($0.latitude),\($0.longitude)" }).count == 1, "one cell, one answer")
    }

    @Test func updatesOnlyOnCellChangeAndAtMostEveryFifteenMinutes() {
        var filter = ApproximateLocation()
        // Driving north at 25 m/s for an hour: crosses a cell every ~4 minutes.
        var times: [Date] = []
        for second in stride(from: 0, to: 3600, by: 1) {
            let lat = 40.0 + Double(second) * 25 / 111_000
            if let out = filter.filter(fix(lat, -3.7, at: Double(second))) { times.append(out.timestamp) }
        }
        #expect(times.count >= 3 && times.count <= 5)
        for (a, b) in zip(times, times.dropFirst()) { #expect(b.timeIntervalSince(a) >= 15 * 60) }
    }

    @Test(arguments: [(89.99, 179.99), (-89.99, -180.0), (0.0, 180.0), (65.0, -179.999)])
    func cellsAreValidNearPolesAndTheAntimeridian(lat: Double, lon: Double) throws {
        var filter = ApproximateLocation()
        let out = try #require(filter.filter(fix(lat, lon, at: 0)) as Fix?)
        #expect(abs(out.latitude) <= 90 && abs(out.longitude) <= 180)
        #expect(out.hasValidPosition)
    }
}
