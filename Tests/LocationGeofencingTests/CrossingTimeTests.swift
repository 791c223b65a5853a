import Foundation
import LocationGeodesy
import LocationProtocol
import Testing
@testable import LocationGeofencing

/// A transition is dated when the boundary was crossed, as the fixes on either side of it put it,
/// not when a fix was far enough past it to decide.
@Suite struct CrossingTimeTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    /// Walking (1.4 m/s) or driving (10 m/s) east through a 100 m circle, one exact fix a second
    /// claiming 5 m: the entry and exit carry the true crossing times, while the deciding fixes come
    /// 22.5 m (k × 5 m) later.
    @Test(arguments: [1.4, 10.0])
    func crossingsAreDatedBetweenTheFixesAroundTheBoundary(speed: Double) throws {
        let evaluator = GeofenceEvaluator()
        let key = try #require(evaluator.add(FenceCircle(latitude: 45, longitude: 7, radius: 100)))
        let west = Geodesic.wgs84.direct(latitude: 45, longitude: 7, azimuth: 270, distance: 300)
        var dated: [(FenceState, decided: Date, crossed: Date?)] = []
        for second in 0...Int(600 / speed) {
            let here = Geodesic.wgs84.direct(latitude: west.latitude, longitude: west.longitude, azimuth: 90,
                                             distance: speed * Double(second))
            let time = Self.start.addingTimeInterval(Double(second))
            let fix = Fix(latitude: here.latitude, longitude: here.longitude, horizontalAccuracy: 5, timestamp: time)
            for change in evaluator.evaluate(fix) where change.key == key && change.from != .unknown {
                dated.append((change.to, time, change.crossedAt))
            }
        }
        try #require(dated.map(\.0) == [.inside, .outside])
        // The path meets the circle about 200 m and 400 m from its start (the centre is 300 m east).
        for ((_, decided, crossed), metres) in zip(dated, [200.0, 400.0]) {
            let truth = Self.start.addingTimeInterval(metres / speed)
            let estimate = try #require(crossed)
            #expect(abs(estimate.timeIntervalSince(truth)) < 0.5, "dated \(estimate.timeIntervalSince(truth)) s off")
            #expect(decided.timeIntervalSince(truth) >= 22.5 / speed - 1, "decided only once 22.5 m past")
        }
    }
}
