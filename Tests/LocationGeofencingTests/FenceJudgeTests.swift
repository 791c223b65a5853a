import LocationProtocol
import Testing
@testable import LocationGeofencing

@Suite struct FenceJudgeTests {
    @Test func decidesOnlyWhenKAccuraciesClear() {
        let k = FenceJudge.confidenceFactor
        #expect(FenceJudge.decide(distance: 100 - k * 10, radius: 100, accuracy: 10) == .inside)
        #expect(FenceJudge.decide(distance: 100 - k * 10 + 0.01, radius: 100, accuracy: 10) == nil)
        #expect(FenceJudge.decide(distance: 100 + k * 10, radius: 100, accuracy: 10) == .outside)
        #expect(FenceJudge.decide(distance: 100 + k * 10 - 0.01, radius: 100, accuracy: 10) == nil)
        #expect(FenceJudge.decide(distance: 0, radius: 100, accuracy: 30) == nil, "the fence is smaller than the error")
    }

    @Test(arguments: [0.0, -1, .nan, .infinity])
    func unknownAccuracyDecidesNothing(accuracy: Double) {
        #expect(FenceJudge.decide(distance: 0, radius: 1_000, accuracy: accuracy) == nil)
        #expect(FenceJudge.decide(distance: 1e6, radius: 1_000, accuracy: accuracy) == nil)
    }

    @Test func chordBoundsAgreeWithTheExactDecision() {
        // Points at chosen distances north of a centre at 60° N: the chord path and the exact path agree.
        let centre = EarthPoint(latitude: 60, longitude: 10)
        for metres in stride(from: 0.0, through: 3_000, by: 0.5) {
            let p = LocationGeodesyShim.point(from: (60, 10), azimuth: 0, distance: metres)
            let exact = ChordBounds.exactDistance(p, centre)
            let chord = p.chord(to: centre)
            #expect(ChordBounds.lower(chord) <= exact && exact <= ChordBounds.upper(chord))
            for accuracy in [3.0, 10, 50] {
                let margin = FenceJudge.confidenceFactor * accuracy
                #expect(FenceJudge.decide(chord: chord, radius: 1_000, margin: margin, p, centre)
                        == FenceJudge.decide(distance: exact, radius: 1_000, accuracy: accuracy))
            }
        }
    }
}
