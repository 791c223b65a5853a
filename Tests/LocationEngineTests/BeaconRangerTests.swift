import Foundation
import LocationProtocol
import LocationSources
import Testing
@testable import LocationEngine

/// The ranger: distance from strength, proximity without flicker, beacons that go quiet.
@Suite struct BeaconRangerTests {
    static let identity = BeaconIdentity(uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 1)
    static let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    static func sighting(_ rssi: Int, at second: Double, power: Int = -59) -> BeaconSighting {
        BeaconSighting(identity: identity, measuredPower: power, rssi: rssi, timestamp: start.addingTimeInterval(second))
    }

    @Test func distanceFollowsTheLogDistanceModel() throws {
        #expect(try #require(BeaconPathLoss.distance(rssi: -59, measuredPower: -59)) == 1)
        #expect(abs(try #require(BeaconPathLoss.distance(rssi: -79, measuredPower: -59)) - 10) < 1e-9)
        #expect(abs(try #require(BeaconPathLoss.distance(rssi: -53, measuredPower: -59)) - 0.501) < 0.001)
        #expect(BeaconPathLoss.distance(rssi: -70, measuredPower: 0) == nil)
        #expect(BeaconPathLoss.distance(rssi: 0, measuredPower: -59) == nil)
    }

    @Test func aQuietBeaconKeepsItsPlaceThenTurnsUnknownThenGoes() throws {
        var ranger = BeaconRanger()
        for second in 0..<5 { ranger.observe(Self.sighting(-65, at: Double(second))) }
        let heard = try #require(ranger.range(at: Self.start.addingTimeInterval(4.5)).first)
        #expect(heard.rssi == -65 && heard.proximity == .near && heard.accuracy > 1.9)
        #expect(heard.timestamp == Self.start.addingTimeInterval(4))

        // Not heard in the last interval: rssi 0, distance and proximity stand.
        let quiet = try #require(ranger.range(at: Self.start.addingTimeInterval(5.5)).first)
        #expect(quiet.rssi == 0 && quiet.proximity == .near && quiet.accuracy == heard.accuracy)
        // Five seconds unheard: unknown, no distance.
        let unknown = try #require(ranger.range(at: Self.start.addingTimeInterval(9)).first)
        #expect(unknown.rssi == 0 && unknown.proximity == .unknown && unknown.accuracy == -1)
        // Ten: gone.
        #expect(ranger.range(at: Self.start.addingTimeInterval(14)).isEmpty)
        #expect(ranger.trackedCount == 0)
    }

    @Test func strengthsThatAreNoMeasurementAreIgnored() {
        var ranger = BeaconRanger()
        ranger.observe(Self.sighting(0, at: 0))
        ranger.observe(Self.sighting(127, at: 0))
        #expect(ranger.range(at: Self.start.addingTimeInterval(1)).isEmpty)
        // A beacon advertising no usable measured power is listed without a distance.
        ranger.observe(Self.sighting(-70, at: 1, power: 0))
        let listed = ranger.range(at: Self.start.addingTimeInterval(1.5))
        #expect(listed.count == 1 && listed[0].accuracy == -1 && listed[0].proximity == .unknown && listed[0].rssi == -70)
    }

    /// A strength jumping straight from immediate to far goes through near, and each change waits
    /// for the dwell.
    @Test func proximityStepsOneBandAtATimeAfterTheDwell() {
        var ranger = BeaconRanger(parameters: BeaconRanger.Parameters(smoothing: .exponential(weight: 1)))
        var seen: [BeaconProximity] = []
        // 0.3 m for five seconds, then 20 m.
        for second in 0..<15 {
            let rssi = second < 5 ? -49 : -85
            ranger.observe(Self.sighting(rssi, at: Double(second)))
            seen.append(ranger.range(at: Self.start.addingTimeInterval(Double(second) + 0.5)).first?.proximity ?? .unknown)
        }
        #expect(Array(seen.prefix(5)) == Array(repeating: .immediate, count: 5))
        #expect(Array(seen[5...]) == [.immediate, .near, .near, .far, .far, .far, .far, .far, .far, .far])
    }

    /// Alternating across a boundary inside the hysteresis band changes nothing.
    @Test func noFlappingInsideTheHysteresis() {
        var ranger = BeaconRanger(parameters: BeaconRanger.Parameters(smoothing: .exponential(weight: 1)))
        var seen: Set<BeaconProximity> = []
        // 2.5 m and 4 m alternately (−67 and −71 dBm): near entered, never left (far only beyond 6 m).
        for second in 0..<60 {
            ranger.observe(Self.sighting(second.isMultiple(of: 2) ? -67 : -71, at: Double(second)))
            seen.insert(ranger.range(at: Self.start.addingTimeInterval(Double(second) + 0.5)).first?.proximity ?? .unknown)
        }
        #expect(seen == [.near])
        // Beyond 6 m (6.3 m, −75 dBm) on every other scan only: the dwell of two holds it.
        var flicker = BeaconRanger(parameters: BeaconRanger.Parameters(smoothing: .exponential(weight: 1)))
        seen = []
        for second in 0..<60 {
            flicker.observe(Self.sighting(second.isMultiple(of: 2) ? -67 : -75, at: Double(second)))
            seen.insert(flicker.range(at: Self.start.addingTimeInterval(Double(second) + 0.5)).first?.proximity ?? .unknown)
        }
        #expect(seen == [.near])
    }

    /// The comparison behind the default smoothing, on the same simulated data: the Kalman filter
    /// errs less than the averages and changes proximity no more often, and nothing jumps from
    /// immediate to far.
    @Test func kalmanBeatsTheAveragesOnTheSameData() {
        let kalman = BeaconRangerEvaluation.evaluate(BeaconRanger.Parameters())
        let exponential = BeaconRangerEvaluation.evaluate(BeaconRanger.Parameters(smoothing: .exponential(weight: 0.3)))
        let running = BeaconRangerEvaluation.evaluate(BeaconRanger.Parameters(smoothing: .runningAverage(window: 20)))
        #expect(BeaconRanger.Parameters().smoothing == .kalman(processNoise: 8, measurementNoise: 16))
        #expect(kalman.medianDistanceError < exponential.medianDistanceError)
        #expect(kalman.medianDistanceError < running.medianDistanceError)
        // A pass truly changes twice (far → near → far).
        #expect(abs(kalman.proximityChangesPerPass - 2) <= abs(exponential.proximityChangesPerPass - 2))
        #expect(abs(kalman.proximityChangesPerPass - 2) < 0.2)
        #expect(kalman.standingChanges < 2.5)
        #expect(kalman.nearEntryLag < running.nearEntryLag)
        #expect(kalman.immediateFarJumps == 0 && exponential.immediateFarJumps == 0 && running.immediateFarJumps == 0)
    }
}
