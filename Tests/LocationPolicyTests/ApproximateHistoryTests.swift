import Foundation
import LocationPolicy
import LocationProtocol
import Testing

/// The per-app rule for approximate location: a new region at most every 15 minutes and never more
/// than four reports an hour; the reported fix says nothing the region does not.
@Suite struct ApproximateHistoryTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    let grid = GridApproximateRegions()

    private func fix(_ latitude: Double, _ longitude: Double, at seconds: TimeInterval) -> Fix {
        Fix(latitude: latitude, longitude: longitude, altitude: 30, ellipsoidalAltitude: 70, horizontalAccuracy: 5,
            verticalAccuracy: 3, speed: 12, speedAccuracy: 0.5, course: 80, courseAccuracy: 4,
            timestamp: Self.start.addingTimeInterval(seconds))
    }

    @Test func theFirstFixIsReportedAsItsRegionWithMotionAndAltitudeWithheld() throws {
        var history = ApproximateHistory()
        do {
            let reported = history.observe(fix(52.5163, 13.3777, at: 0), regions: grid, now: Self.start)
            #expect(reported)
        }
        let shown = try #require(history.current?.fix)
        let region = grid.region(latitude: 52.5163, longitude: 13.3777)
        #expect(shown.latitude == region.latitude && shown.longitude == region.longitude)
        #expect(shown.horizontalAccuracy == region.radius)
        #expect(shown.speed < 0 && shown.course < 0 && shown.verticalAccuracy < 0 && shown.altitude == 0)
        #expect(shown.timestamp == Self.start)
    }

    @Test func anHourOfDrivingThroughManyRegionsGivesAtMostFourReportsFifteenMinutesApart() {
        var history = ApproximateHistory()
        var reports: [Date] = []
        var regionsCrossed = Set<UInt64>()
        // North at 25 m/s: a new 5.6 km cell about every four minutes.
        for second in stride(from: 0.0, through: 3600, by: 1) {
            let latitude = 40.0 + second * 25 / 111_000
            regionsCrossed.insert(grid.region(latitude: latitude, longitude: -3.7).id)
            let now = Self.start.addingTimeInterval(second)
            if history.observe(fix(latitude, -3.7, at: second), regions: grid, now: now) { reports.append(now) }
        }
        #expect(regionsCrossed.count > 10)
        #expect(reports.count == 4)
        for (a, b) in zip(reports, reports.dropFirst()) { #expect(b.timeIntervalSince(a) >= 15 * 60) }
    }

    @Test func noHourEverHoldsMoreThanFourReports() {
        var history = ApproximateHistory()
        var reports: [Date] = []
        for minute in 0..<(6 * 60) {
            let now = Self.start.addingTimeInterval(Double(minute) * 60)
            // A new region every minute.
            if history.observe(fix(10 + Double(minute) * 0.06, 20, at: Double(minute) * 60), regions: grid, now: now) {
                reports.append(now)
            }
        }
        #expect(reports.count >= 20)
        for report in reports {
            let window = reports.filter { $0 >= report && $0.timeIntervalSince(report) <= 3600 }
            #expect(window.count <= 4, "\(window)")
        }
    }

    @Test func aClockStepBackLengthensTheWaitByAtMostOneInterval() {
        var history = ApproximateHistory()
        do {
            let reported = history.observe(fix(10, 20, at: 0), regions: grid, now: Self.start)
            #expect(reported)
        }
        // The clock goes back an hour: the last report now lies in the future. A fix in the same
        // region comes at the step.
        let stepped = Self.start.addingTimeInterval(-3600 + 60)
        do {
            let reported = history.observe(fix(10, 20, at: 0), regions: grid, now: stepped)
            #expect(!reported)
        }
        #expect(!history.mayReport(at: stepped), "never sooner than the interval")
        #expect(!history.mayReport(at: stepped.addingTimeInterval(14 * 60)))
        #expect(history.mayReport(at: stepped.addingTimeInterval(15 * 60)),
                "the report counts as made at the step, not an hour ahead: the wait is one interval")
        let reported = history.observe(fix(12, 20, at: 0), regions: grid, now: stepped.addingTimeInterval(15 * 60))
        #expect(reported)
    }

    @Test func stayingInOneRegionReportsOnce() {
        var history = ApproximateHistory()
        let region = grid.region(latitude: 48.1371, longitude: 11.5754)
        var reports = 0
        for i in 0..<1000 {
            let jitter = Double(i % 17) * 0.0001
            let now = Self.start.addingTimeInterval(Double(i) * 60)
            if history.observe(fix(48.1371 + jitter, 11.5754 - jitter, at: Double(i) * 60), regions: grid, now: now) { reports += 1 }
        }
        #expect(reports == 1)
        #expect(history.current?.region == region)
    }

    @Test func aClockThatWentBackDelaysTheNextReport() {
        var history = ApproximateHistory()
        do {
            let reported = history.observe(fix(40, -3.7, at: 0), regions: grid, now: Self.start)
            #expect(reported)
        }
        // Another region, an hour earlier by the clock: no report for a whole interval from the step
        // (the last report counts as made at the step), not for the hour the clock went back.
        let stepped = Self.start.addingTimeInterval(-3600)
        do {
            let reported = history.observe(fix(41, -3.7, at: 10), regions: grid, now: stepped)
            #expect(!reported)
        }
        do {
            let reported = history.observe(fix(41, -3.7, at: 20), regions: grid, now: stepped.addingTimeInterval(14 * 60))
            #expect(!reported)
        }
        do {
            let reported = history.observe(fix(41, -3.7, at: 30), regions: grid, now: stepped.addingTimeInterval(15 * 60))
            #expect(reported)
        }
    }

    @Test func aLayoutsHysteresisIsAskedWithThePreviousRegion() {
        struct Sticky: ApproximateRegions {
            let grid = GridApproximateRegions()
            func region(latitude: Double, longitude: Double) -> ApproximateRegion { grid.region(latitude: latitude, longitude: longitude) }
            func region(latitude: Double, longitude: Double, previous: ApproximateRegion?) -> ApproximateRegion {
                previous ?? region(latitude: latitude, longitude: longitude)
            }
        }
        var history = ApproximateHistory()
        do {
            let reported = history.observe(fix(40, -3.7, at: 0), regions: Sticky(), now: Self.start)
            #expect(reported)
        }
        do {
            let reported = history.observe(fix(45, -3.7, at: 7200), regions: Sticky(), now: Self.start.addingTimeInterval(7200))
            #expect(!reported)
        }
    }
}

@Suite struct GridApproximateRegionsTests {
    @Test(arguments: [(89.99, 179.99), (-89.99, -180.0), (0.0, 180.0), (65.0, -179.999), (52.52, 13.405)])
    func everyPointOfACellLiesWithinItsRadius(latitude: Double, longitude: Double) {
        let grid = GridApproximateRegions()
        let region = grid.region(latitude: latitude, longitude: longitude)
        #expect(abs(region.latitude) <= 90 && abs(region.longitude) <= 180)
        // Points round the query that fall in the same cell are within the radius of its centre.
        for dLat in stride(from: -0.05, through: 0.05, by: 0.01) {
            for dLon in stride(from: -0.2, through: 0.2, by: 0.02) {
                let lat = min(90, max(-90, latitude + dLat)), lon = min(180, max(-180, longitude + dLon))
                guard grid.region(latitude: lat, longitude: lon).id == region.id else { continue }
                #expect(Self.metres(lat, lon, region.latitude, region.longitude) <= region.radius)
            }
        }
    }

    static func metres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8, p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180
        let a = sin((p2 - p1) / 2) * sin((p2 - p1) / 2) + cos(p1) * cos(p2) * sin((lon2 - lon1) * .pi / 360) * sin((lon2 - lon1) * .pi / 360)
        return 2 * r * asin(min(1, a.squareRoot()))
    }
}
