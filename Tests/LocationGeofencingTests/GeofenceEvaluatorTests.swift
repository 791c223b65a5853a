import Foundation
import LocationGeodesy
import LocationProtocol
import Testing
@testable import LocationGeofencing

@Suite struct GeofenceEvaluatorTests {
    static let epoch = Date(timeIntervalSince1970: 1_767_225_600)

    private func fix(_ lat: Double, _ lon: Double, accuracy: Double = 5) -> Fix {
        Fix(latitude: lat, longitude: lon, horizontalAccuracy: accuracy, timestamp: Self.epoch)
    }

    /// A point `metres` from (lat, lon) due north.
    private func north(of lat: Double, _ lon: Double, by metres: Double) -> (Double, Double) {
        let p = Geodesic.wgs84.direct(latitude: lat, longitude: lon, azimuth: 0, distance: metres)
        return (p.latitude, p.longitude)
    }

    @Test func theFirstFixResolvesUnknownFencesNearAndFar() {
        let evaluator = GeofenceEvaluator()
        let here = evaluator.add(FenceCircle(latitude: 10, longitude: 10, radius: 200))!
        let far = evaluator.add(FenceCircle(latitude: -40, longitude: 170, radius: 200))!
        let edge = evaluator.add(FenceCircle(latitude: 10, longitude: 10.0019, radius: 200))!  // boundary ~8 m away
        let changes = evaluator.evaluate(fix(10, 10))
        #expect(Set(changes.map(\.key)) == [here, far])
        #expect(evaluator.state(of: here) == .inside)
        #expect(evaluator.state(of: far) == .outside)
        #expect(evaluator.state(of: edge) == .unknown, "8 m from the boundary with 5 m accuracy decides nothing")
        #expect(evaluator.evaluate(fix(10, 10)).isEmpty)
    }

    @Test func assumedStatesStandUntilAFixDecidesOtherwise() {
        let evaluator = GeofenceEvaluator()
        let assumedInside = evaluator.add(FenceCircle(latitude: 0, longitude: 0, radius: 100), assuming: .inside)!
        let assumedOutside = evaluator.add(FenceCircle(latitude: 0, longitude: 0.0005, radius: 100), assuming: .outside)!
        #expect(evaluator.state(of: assumedInside) == .inside)
        let changes = evaluator.evaluate(fix(0, 0.0005))  // ~56 m from the first centre, at the second's
        #expect(changes == [FenceTransition(key: assumedOutside, from: .outside, to: .inside)])
        #expect(evaluator.state(of: assumedInside) == .inside, "56 + 22.5 m is not clear of 100 m: undecided, kept")
    }

    @Test func anInsideFenceBecomesOutsideWhenTheDeviceIsFarAway() {
        let evaluator = GeofenceEvaluator()
        let key = evaluator.add(FenceCircle(latitude: 51.5, longitude: -0.12, radius: 300))!
        _ = evaluator.evaluate(fix(51.5, -0.12))
        #expect(evaluator.insideCount == 1)
        let (lat, lon) = north(of: 51.5, -0.12, by: 50_000)
        #expect(evaluator.evaluate(fix(lat, lon)) == [FenceTransition(key: key, from: .inside, to: .outside)])
        #expect(evaluator.insideCount == 0)
    }

    @Test func leavesExactlyKAccuraciesPastTheBoundary() {
        let evaluator = GeofenceEvaluator()
        let key = evaluator.add(FenceCircle(latitude: 30, longitude: 30, radius: 1_000), assuming: .inside)!
        let k = FenceJudge.confidenceFactor
        let (lat1, lon1) = north(of: 30, 30, by: 1_000 + k * 10 - 0.01)
        #expect(evaluator.evaluate(fix(lat1, lon1, accuracy: 10)).isEmpty)
        let (lat2, lon2) = north(of: 30, 30, by: 1_000 + k * 10 + 0.01)
        #expect(evaluator.evaluate(fix(lat2, lon2, accuracy: 10)) == [FenceTransition(key: key, from: .inside, to: .outside)])
    }

    @Test(arguments: [0.0, -1, .nan, .infinity])
    func aFixWithoutAUsableAccuracyDecidesNothing(accuracy: Double) {
        let evaluator = GeofenceEvaluator()
        let key = evaluator.add(FenceCircle(latitude: 0, longitude: 0, radius: 100))!
        #expect(evaluator.evaluate(fix(0, 0, accuracy: accuracy)).isEmpty)
        #expect(evaluator.evaluate(fix(.nan, 0)).isEmpty)
        #expect(evaluator.evaluate(fix(95, 0)).isEmpty)
        #expect(evaluator.state(of: key) == .unknown)
    }

    @Test func replaceRestartsAndRemoveForgets() {
        let evaluator = GeofenceEvaluator()
        let key = evaluator.add(FenceCircle(latitude: 0, longitude: 0, radius: 100))!
        _ = evaluator.evaluate(fix(0, 0))
        #expect(evaluator.state(of: key) == .inside)
        #expect(evaluator.replace(key, with: FenceCircle(latitude: 1, longitude: 1, radius: 100), assuming: .unknown))
        #expect(evaluator.insideCount == 0)
        #expect(evaluator.evaluate(fix(0, 0)) == [FenceTransition(key: key, from: .unknown, to: .outside)])
        #expect(!evaluator.replace(key, with: FenceCircle(latitude: 1, longitude: 1, radius: .nan)))
        #expect(evaluator.remove(key))
        #expect(evaluator.state(of: key) == nil)
        #expect(evaluator.evaluate(fix(1, 1)).isEmpty)
        #expect(!evaluator.remove(key))
    }

    @Test func demandIsCoarseFarAndPreciseNear() {
        let demand = FenceDemand()
        #expect(demand.requiredAccuracy(boundaryDistance: nil) == 3_000)
        #expect(demand.requiredAccuracy(boundaryDistance: 100_000) == 3_000)
        #expect(demand.requiredAccuracy(boundaryDistance: 1_100) == 200)
        #expect(demand.requiredAccuracy(boundaryDistance: 10) == 5)
        #expect(demand.requiredAccuracy(boundaryDistance: 0) == 5)
        #expect(demand.requiredAccuracy(boundaryDistance: .nan) == 5)
        #expect(demand.requiredAccuracy(boundaryDistance: .infinity) == 3_000)
    }
}
