import Foundation
import LocationGeodesy
import LocationProtocol
import SeededRandom
import Testing
@testable import LocationGeofencing

@Suite struct GeofenceEvaluatorScanTests {
    /// A wandering device among fences in a small region across the antimeridian: the indexed
    /// evaluator and the linear scan make exactly the same transitions, fix after fix.
    @Test(arguments: [UInt64(31), 32])
    func theEvaluatorMatchesTheLinearScan(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let evaluator = GeofenceEvaluator(), scan = LinearGeofenceScan()
        for _ in 0..<2_000 {
            let circle = FenceCircle(latitude: rng.uniform(-0.2, 0.2), longitude: rng.uniform(179.8, 180.2),
                                     radius: rng.uniform(20, 2_000))
            let wrapped = FenceCircle(latitude: circle.latitude,
                                      longitude: circle.longitude > 180 ? circle.longitude - 360 : circle.longitude,
                                      radius: circle.radius)
            let state: FenceState = [.unknown, .inside, .outside][Int(rng.next() % 3)]
            #expect(evaluator.add(wrapped, assuming: state) == scan.add(wrapped, assuming: state))
        }
        var lat = 0.0, lon = 180.0
        var changes = 0
        for second in 0..<3_000 {
            let step = Geodesic.wgs84.direct(latitude: lat, longitude: lon, azimuth: rng.uniform(0, 360),
                                             distance: rng.uniform(0, 300))
            lat = max(-0.25, min(0.25, step.latitude))
            lon = step.longitude
            let accuracy = [3.0, 10, 65, 300, -1][Int(rng.next() % 5)]
            let fix = Fix(latitude: lat, longitude: lon, horizontalAccuracy: accuracy,
                          timestamp: Date(timeIntervalSince1970: Double(second)))
            // The scan does not date crossings; the states must agree.
            let a = evaluator.evaluate(fix).sorted { $0.key < $1.key }.map { FenceTransition(key: $0.key, from: $0.from, to: $0.to) }
            let b = scan.evaluate(fix)
            #expect(a == b, "fix \(second)")
            changes += a.count
        }
        #expect(changes > 500)
    }
}
