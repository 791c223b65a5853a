import LocationNMEA
import Testing

/// Whole captures from real receiver types: every epoch, and the values of one epoch in detail.
@Suite struct ReceiverFixtureTests {
    static let knot = 1852.0 / 3600.0

    @Test func ubloxM8NGPSAndGLONASS() throws {
        let result = decode(try fixture("ublox-m8n-gps-glonass.nmea"))
        #expect(result.events.count == 8)
        #expect(result.noFixCount == 0)
        #expect(result.statistics.unsupported == 2, "GNTXT and PUBX")
        #expect(result.statistics.sentences == 88)
        #expect(result.statistics.epochs == 8)
        let fix = try #require(result.fixes.first)
        #expect(fix.latitude == degrees(47, 22.61322))
        #expect(fix.longitude == degrees(8, 32.50164))
        #expect(fix.altitudeMSL == 408.2)
        #expect(fix.geoidSeparation == 47.3)
        #expect(fix.ellipsoidalAltitude == 408.2 + 47.3)
        #expect(fix.hdop == 0.87)
        #expect(fix.vdop == 1.25)
        #expect(fix.pdop == 1.52)
        #expect(fix.horizontalAccuracy == 0.87 * NMEAAccuracy.userEquivalentRangeError)
        #expect(fix.verticalAccuracy == 1.25 * NMEAAccuracy.userEquivalentRangeError)
        #expect(fix.speed == 24.492 * Self.knot)
        #expect(fix.course == 52.3)
        #expect(fix.time == unixTime(2024, 3, 14, 8, 14, 31))
        #expect(fix.timeOfDay == Double(8 * 3600 + 14 * 60 + 31))
        #expect(fix.quality == 1)
        #expect(fix.mode == .threeD)
        #expect(fix.satellitesUsed == 11, "GGA's 11; the two GSAs list 7 + 4")
        #expect(fix.satellitesInView == 19, "12 GPS + 7 GLONASS")
        #expect(fix.heading == nil)
        // One fix per second, moving north-east.
        let times = result.fixes.compactMap(\.time)
        #expect(times == (0..<8).map { unixTime(2024, 3, 14, 8, 14, 31 + Double($0)) })
        #expect(result.fixes.last!.latitude > fix.latitude)
        #expect(result.fixes.last!.longitude > fix.longitude)
    }

    @Test func sirfStarIVWithSatellitesInViewEveryFiveSeconds() throws {
        let result = decode(try fixture("sirf-star4-gps.nmea"))
        #expect(result.fixes.count == 11)
        #expect(result.statistics.lateSentences == 0)
        let fix = result.fixes[0]
        #expect(fix.latitude == degrees(41, 52.6868))
        #expect(fix.longitude == -degrees(87, 37.7879))
        #expect(fix.geoidSeparation == -33.9)
        #expect(fix.ellipsoidalAltitude == 181.0 - 33.9)
        #expect(fix.hdop == 1.2)
        #expect(fix.time == unixTime(2023, 5, 6, 17, 2, 55))
        #expect(fix.course == 271.4)
        #expect(fix.satellitesUsed == 7)
        // GSV comes with the epochs at 0 s and 5 s and 10 s only.
        #expect(result.fixes.map(\.satellitesInView) == [10, nil, nil, nil, nil, 10, nil, nil, nil, nil, 10])
    }

    @Test func multiGNSSWithNMEA411SystemAndSignalIDs() throws {
        let result = decode(try fixture("quectel-multi-gnss-nmea411.nmea"))
        #expect(result.fixes.count == 6, "RMC's navigational status V means 'not provided', not 'invalid'")
        let fix = result.fixes[0]
        #expect(fix.latitude == degrees(35, 40.87416))
        #expect(fix.longitude == degrees(139, 46.02750))
        #expect(fix.satellitesUsed == 21, "four GNGSA, one per system: 9 + 4 + 5 + 3")
        #expect(fix.satellitesInView == 11 + 5 + 6 + 4, "GPS, GLONASS, Galileo, BeiDou")
        #expect(fix.hdop == 0.61)
        #expect(fix.speed == 16.13 * Self.knot)
        #expect(fix.course == 180)
        #expect(fix.time == unixTime(2024, 7, 21, 3, 45, 10))
        #expect(result.fixes.map(\.latitude) == result.fixes.map(\.latitude).sorted(by: >), "driving south")
    }

    @Test func rtkReceiverWithGSTZDAAndHeading() throws {
        let result = decode(try fixture("rtk-gst-zda.nmea"))
        #expect(result.fixes.count == 5)
        let fix = result.fixes[0]
        #expect(fix.quality == 4, "RTK fixed")
        #expect(fix.latitude == -degrees(33, 51.40704000))
        #expect(fix.longitude == degrees(151, 12.91782000))
        #expect(fix.altitudeMSL == 12.457)
        // GST replaces the DOP estimate.
        #expect(fix.horizontalAccuracy == (0.012 * 0.012 + 0.014 * 0.014).squareRoot())
        #expect(fix.verticalAccuracy == 0.027)
        #expect(fix.heading == 84.512)
        #expect(fix.speed == 0.004 * Self.knot)
        // The date from ZDA alone.
        #expect(fix.time == unixTime(2023, 9, 30, 23, 10, 5))
        #expect(result.fixes.map(\.heading) == [84.512, 84.522, 84.532, 84.542, 84.552])
    }

    @Test func noDateUntilTheFirstRMC() throws {
        let result = decode(try fixture("gga-then-rmc-date.nmea"))
        #expect(result.fixes.count == 6)
        #expect(result.fixes.map(\.timeOfDay) == [53997, 53998, 53999, 54000, 54001, 54002].map(Double.init))
        // Without a date there is no time; from the RMC on there is.
        #expect(result.fixes[0..<3].allSatisfy { $0.time == nil })
        #expect(result.fixes[3].time == unixTime(2024, 6, 5, 15, 0, 0))
        #expect(result.fixes[5].time == unixTime(2024, 6, 5, 15, 0, 2))
        #expect(result.fixes[0].speed == nil)
        #expect(result.fixes[3].speed == 2.527 * Self.knot)
        #expect(result.fixes[5].speed == 2.527 * Self.knot)
    }

    @Test func midnightRolloverAdvancesTheDate() throws {
        let result = decode(try fixture("midnight-rollover-zda.nmea"))
        #expect(result.fixes.count == 9)
        // ZDA said 31 December 2023 once, at 23:59:55; GGA goes on past midnight.
        let expected = (0..<9).map { unixTime(2023, 12, 31, 23, 59, 55) + Double($0) }
        #expect(result.fixes.map(\.time) == expected)
        #expect(result.fixes[5].timeOfDay == 0)
        #expect(result.fixes[0].quality == 2, "DGPS")
    }

    @Test func coldStartReportsNoFixUntilTheFirstFix() throws {
        let result = decode(try fixture("ublox-cold-start.nmea"))
        #expect(result.events.count == 7)
        // Three epochs with empty times, two with a time but no fix, then a 2D and a 3D fix.
        #expect(Array(result.events.prefix(5)) == [
            .noFix(timeOfDay: nil), .noFix(timeOfDay: nil), .noFix(timeOfDay: nil),
            .noFix(timeOfDay: 36131), .noFix(timeOfDay: 36132),
        ])
        let first = result.fixes[0]
        #expect(first.mode == .twoD)
        #expect(first.altitudeMSL == nil)
        #expect(first.verticalAccuracy == nil, "no vertical accuracy for a 2D fix")
        #expect(first.horizontalAccuracy == 4.52 * NMEAAccuracy.userEquivalentRangeError)
        #expect(first.course == nil, "course empty at walking pace")
        #expect(first.satellitesUsed == 3)
        #expect(first.time == unixTime(2024, 2, 18, 10, 2, 13))
        let second = result.fixes[1]
        #expect(second.mode == .threeD)
        #expect(second.altitudeMSL == 31.8)
        #expect(second.verticalAccuracy == 2.98 * NMEAAccuracy.userEquivalentRangeError)
    }

    @Test func fiveHertz() throws {
        let result = decode(try fixture("ublox-5hz.nmea"))
        #expect(result.fixes.count == 12)
        let expected = (0..<12).map { unixTime(2024, 10, 1, 16, 20, 0) + Double($0) * 0.2 }
        let times = result.fixes.compactMap(\.time)
        #expect(times.count == 12)
        for (time, want) in zip(times, expected) { #expect(abs(time - want) < 1e-6) }
        #expect(result.fixes.allSatisfy { $0.speed == 64.924 * Self.knot })
        #expect(result.fixes[1].timeOfDay == Double(16 * 3600 + 20 * 60) + 0.2)
    }

    @Test(arguments: fixtureNames)
    func everyFixtureDecodesCleanly(name: String) throws {
        let result = decode(try fixture(name))
        let s = result.statistics
        let rejected = [s.badChecksum, s.missingChecksum, s.malformed, s.overlong, s.lateSentences]
        #expect(rejected == [0, 0, 0, 0, 0])
        #expect(s.skippedBytes == 0)
        #expect(s.epochs == result.events.count)
        #expect(!result.fixes.isEmpty)
        for fix in result.fixes {
            #expect(abs(fix.latitude) <= 90)
            #expect(abs(fix.longitude) <= 180)
            #expect((fix.horizontalAccuracy ?? 0) > 0)
            #expect(fix.timeOfDay != nil)
        }
    }
}
