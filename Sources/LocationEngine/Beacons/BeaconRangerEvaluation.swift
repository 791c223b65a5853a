import Foundation
import LocationProtocol
import LocationSources

/// Measures a `BeaconRanger` configuration on simulated advertisements (`SimulatedBeaconSignal`:
/// σ = 4 dB, lost advertisements, gaps), the same data for every configuration, so smoothings can be
/// compared with numbers: `corelocation-bench beacons` prints them, the tests bound them.
///
/// Two scenes per seed, one advertisement a second from a beacon at −59 dBm at 1 m, ranged every second:
/// - a walk: four passes (there and back, twice) along a straight line 1 m to the side of the beacon,
///   from 30 m before it to 30 m past it at 1.4 m/s;
/// - standing still 3 m from the beacon (the near/far boundary) for five minutes.
public enum BeaconRangerEvaluation {
    public struct Result: Sendable, Equatable {
        /// Median of |reported − true distance| while within 15 m and a distance is reported, metres.
        public var medianDistanceError: Double
        /// Proximity changes per pass of the walk (a pass truly has two: far → near → far).
        public var proximityChangesPerPass: Double
        /// Proximity changes per five minutes standing at 3 m (truly none), counted after the first five
        /// seconds: a first estimate from one or two advertisements may fall on either side.
        public var standingChanges: Double
        /// Mean seconds from truly coming within 3 m to being reported near or immediate.
        public var nearEntryLag: Double
        /// Reports that went from immediate to far or back in one step (must be none).
        public var immediateFarJumps: Int
    }

    public static let measuredPower = -59
    static let lateralOffset = 1.0
    static let halfLength = 30.0
    static let walkingSpeed = 1.4
    static let passes = 4
    static let standingDistance = 3.0
    static let standingSeconds = 300

    public static func evaluate(_ parameters: BeaconRanger.Parameters, seeds: ClosedRange<UInt64> = 1...20) -> Result {
        var errors: [Double] = []
        var walkChanges = 0, standingChanges = 0, jumps = 0
        var lags: [Double] = []
        let passSeconds = Int((2 * halfLength / walkingSpeed).rounded(.up))
        let identity = BeaconIdentity(uuid: UUID(uuid: (0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2,
                                                        0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0)),
                                      major: 1, minor: 1)
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        for seed in seeds {
            var signal = SimulatedBeaconSignal(seed: seed)
            var ranger = BeaconRanger(parameters: parameters)
            var previous: BeaconProximity?
            var enteredAt: Int?
            var reportedNear = false
            for second in 0..<(passes * passSeconds) {
                let pass = second / passSeconds
                let along = Double(second % passSeconds) * walkingSpeed - halfLength
                let x = pass.isMultiple(of: 2) ? along : -along
                let distance = (x * x + lateralOffset * lateralOffset).squareRoot()
                let time = start.addingTimeInterval(Double(second))
                if second % passSeconds == 0 {
                    enteredAt = nil
                    reportedNear = false
                }
                if let rssi = signal.nextRSSI(measuredPower: measuredPower, distance: distance) {
                    ranger.observe(BeaconSighting(identity: identity, measuredPower: measuredPower, rssi: rssi, timestamp: time))
                }
                let report = ranger.range(at: time).first
                if let report, report.accuracy >= 0, distance <= 15 { errors.append(abs(report.accuracy - distance)) }
                let proximity = report?.proximity ?? .unknown
                if let previous, previous != proximity {
                    walkChanges += 1
                    if Set([previous, proximity]) == [.immediate, .far] { jumps += 1 }
                }
                previous = proximity
                if enteredAt == nil, distance < standingDistance { enteredAt = second }
                if let enteredAt, !reportedNear, proximity == .near || proximity == .immediate {
                    reportedNear = true
                    lags.append(Double(second - enteredAt))
                }
            }
            var standing: BeaconProximity?
            var standingRanger = BeaconRanger(parameters: parameters)
            for second in 0..<standingSeconds {
                let time = start.addingTimeInterval(Double(second))
                if let rssi = signal.nextRSSI(measuredPower: measuredPower, distance: standingDistance) {
                    standingRanger.observe(BeaconSighting(identity: identity, measuredPower: measuredPower, rssi: rssi, timestamp: time))
                }
                let proximity = standingRanger.range(at: time).first?.proximity ?? .unknown
                // The first estimate is not a change.
                if let standing, standing != proximity, second > 5 {
                    standingChanges += 1
                    if Set([standing, proximity]) == [.immediate, .far] { jumps += 1 }
                }
                standing = proximity
            }
        }
        let runs = Double(seeds.count)
        errors.sort()
        return Result(
            medianDistanceError: errors.isEmpty ? .infinity : errors[errors.count / 2],
            proximityChangesPerPass: Double(walkChanges) / (runs * Double(passes)),
            standingChanges: Double(standingChanges) / runs,
            nearEntryLag: lags.isEmpty ? .infinity : lags.reduce(0, +) / Double(lags.count),
            immediateFarJumps: jumps)
    }
}
