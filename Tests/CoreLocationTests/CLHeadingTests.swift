import CoreLocation
import Testing

@Suite struct CLHeadingTests {
    let date = Date(timeIntervalSince1970: 1_516_246_355)  // 2018-01-18 03:32:35 UTC

    func heading() -> CLHeading {
        CLHeading(
            magneticHeading: 17.63, trueHeading: -1, headingAccuracy: 25,
            x: -5.68, y: 18.537, z: -28.31, timestamp: date)
    }

    @Test func values() {
        let h = heading()
        #expect(h.magneticHeading == 17.63)
        #expect(h.trueHeading == -1)
        #expect(h.headingAccuracy == 25)
        #expect(h.x == -5.68 && h.y == 18.537 && h.z == -28.31)
        #expect(h.timestamp == date)
    }

    @Test func descriptionUsesApplesFormat() {
        #expect(heading().description
            == "magneticHeading 17.63 trueHeading -1.00 accuracy 25.00 x -5.680 y +18.537 z -28.310 @ 2018-01-18 03:32:35 +0000")
    }

    @Test func defaultInitializerIsInvalid() {
        let h = CLHeading()
        #expect(h.headingAccuracy < 0)
        #expect(h.trueHeading < 0)
    }

    @Test func secureCodingRoundTrip() throws {
        let h = heading()
        let decoded = try #require(try archiveRoundTrip(h))
        #expect(decoded.magneticHeading == h.magneticHeading && decoded.trueHeading == h.trueHeading)
        #expect(decoded.headingAccuracy == h.headingAccuracy)
        #expect(decoded.x == h.x && decoded.y == h.y && decoded.z == h.z)
        #expect(decoded.timestamp == h.timestamp)
        #expect(h.copy() as AnyObject === h)
    }

    /// The usual way to fake a heading in an app's tests.
    @Test func mockBySubclassing() {
        final class East: CLHeading {
            override var magneticHeading: CLLocationDirection { 90 }
            override var trueHeading: CLLocationDirection { 93 }
        }
        let east = East()
        #expect(east.magneticHeading == 90 && east.trueHeading == 93)
        #expect(east.description.hasPrefix("magneticHeading 90.00 trueHeading 93.00"))
    }
}
