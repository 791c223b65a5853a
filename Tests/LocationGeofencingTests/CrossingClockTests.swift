import Testing
@testable import LocationGeofencing

/// The crossing clock dates a crossing between two consecutive fixes near a fence, and follows a
/// fence only while fixes are near it (its work per fix stays that of the fences near the fix).
@Suite struct CrossingClockTests {
    @Test func aCrossingIsDatedWhereTheSignedDistanceIsZero() {
        let clock = CrossingClock()
        clock.reset(0)
        clock.begin()
        clock.observe(0, signedDistance: 30, at: 100)
        clock.end(at: 100)
        clock.begin()
        clock.observe(0, signedDistance: -10, at: 104)
        clock.end(at: 104)
        #expect(clock.crossing(0, inward: true) == 103)
        #expect(clock.crossing(0, inward: false) == nil)
    }

    @Test func aFenceLeftBehindIsMeasuredOnceAndThenNoLongerFollowed() {
        let clock = CrossingClock()
        clock.reset(0)
        clock.begin()
        clock.observe(0, signedDistance: -5, at: 1)
        clock.end(at: 1)
        clock.begin()
        #expect(clock.leftBehind { _ in false } == [0], "near the previous fix, not this one")
        clock.observe(0, signedDistance: 400, at: 2, near: false)
        clock.end(at: 2)
        #expect(clock.crossing(0, inward: false) != nil)
        clock.begin()
        #expect(clock.leftBehind { _ in false }.isEmpty, "far from every later fix: not followed")
    }

    @Test func aCrossingSeenBeforeAGapTellsNothing() {
        let clock = CrossingClock()
        clock.reset(0)
        clock.begin()
        clock.observe(0, signedDistance: 10, at: 1)
        clock.end(at: 1)
        clock.begin()
        clock.observe(0, signedDistance: -10, at: 2)
        clock.end(at: 2)
        #expect(clock.crossing(0, inward: true) == 1.5)
        clock.begin()
        clock.end(at: 3)  // not near
        clock.begin()
        clock.observe(0, signedDistance: -20, at: 4)
        clock.end(at: 4)
        #expect(clock.crossing(0, inward: true) == nil)
    }
}
