import Foundation
import SeededRandom

/// How a simulated beacon's advertisements reach the device: the received strength falls with the
/// log-distance path-loss model from the beacon's measured power at 1 m, with Gaussian noise of
/// σ = 4 dB (what a phone sees from a beacon in a room: body, orientation and multipath), some
/// advertisements lost, now and then a few seconds of none (a body or a wall in the way), and none at
/// all beyond `range`.
///
/// Seeded: the same seed gives the same advertisements.
public struct SimulatedBeaconSignal: Sendable {
    /// The path-loss exponent of the simulated world: 2, free space, the same the ranger assumes, so
    /// what the tests measure is the noise and the smoothing, not a model mismatch.
    public static let pathLossExponent = 2.0
    /// Standard deviation of the received strength around the model, dB.
    public static let noiseStandardDeviation = 4.0
    /// Chance that one advertisement is lost.
    public static let lossProbability = 0.1
    /// Chance, each second, that a gap of `gapSeconds` without any advertisement starts.
    public static let gapProbability = 0.02
    public static let gapSeconds = 3
    /// Beyond this distance nothing is heard, metres: a beacon at −59 dBm at 1 m is near −95 dBm
    /// there, about a phone's sensitivity.
    public static let range = 60.0

    private var random: SplitMix64
    private var gapLeft = 0

    public init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// The mean received strength at `distance` metres from a beacon advertising `measuredPower`.
    public static func meanRSSI(measuredPower: Int, distance: Double) -> Double {
        Double(measuredPower) - 10 * pathLossExponent * log10(max(distance, 0.1))
    }

    /// The strength one advertisement sent in this second is received with, whole dBm as adapters
    /// report it; nil when it is not heard.
    public mutating func nextRSSI(measuredPower: Int, distance: Double) -> Int? {
        // Draw every number every time, so what is heard later does not depend on what was lost now.
        let lost = random.unit() < Self.lossProbability
        let gapStarts = random.unit() < Self.gapProbability
        let noise = gaussian() * Self.noiseStandardDeviation
        if gapLeft > 0 {
            gapLeft -= 1
            return nil
        }
        if gapStarts {
            gapLeft = Self.gapSeconds - 1
            return nil
        }
        guard distance.isFinite, distance <= Self.range, !lost else { return nil }
        let rssi = (Self.meanRSSI(measuredPower: measuredPower, distance: distance) + noise).rounded()
        // An adapter reports a strength below 0 dBm; a beacon touching the antenna saturates there.
        return Int(min(max(rssi, -127), -1))
    }

    /// A standard normal deviate (Box–Muller).
    private mutating func gaussian() -> Double {
        let u1 = 1 - random.unit()  // (0, 1]
        let u2 = random.unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
