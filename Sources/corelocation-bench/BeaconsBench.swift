import Foundation
import LocationEngine

// corelocation-bench beacons [--dwell N] [--near-enter M] [--near-exit M] [--immediate-exit M]
//
// Compares the beacon ranger's smoothings on the same simulated advertisements
// (`BeaconRangerEvaluation`: walks past a beacon and standing at the near/far boundary, σ = 4 dB,
// lost advertisements and gaps, 20 seeds), with the default proximity bands or those given. Prints a
// Markdown table.

func runBeaconsBenchmark(_ arguments: [String]) -> Never {
    var bands = ProximityBands()
    var it = arguments.makeIterator()
    while let flag = it.next() {
        guard let text = it.next(), let value = Double(text), value > 0 else {
            print("usage: corelocation-bench beacons [--dwell N] [--near-enter M] [--near-exit M] [--immediate-exit M]")
            exit(2)
        }
        switch flag {
        case "--dwell": bands.dwell = Int(value)
        case "--near-enter": bands.nearEnter = value
        case "--near-exit": bands.nearExit = value
        case "--immediate-exit": bands.immediateExit = value
        default:
            print("corelocation-bench beacons: unknown option \(flag)")
            exit(2)
        }
    }
    let candidates: [(String, RSSISmoothing)] = [
        ("running average, 20 s", .runningAverage(window: 20)),
        ("running average, 5 s", .runningAverage(window: 5)),
        ("exponential, weight 0.3", .exponential(weight: 0.3)),
        ("exponential, weight 0.5", .exponential(weight: 0.5)),
        ("Kalman, q 1.5 dB²/s", .kalman(processNoise: 1.5, measurementNoise: 16)),
        ("Kalman, q 4 dB²/s", .kalman(processNoise: 4, measurementNoise: 16)),
        ("Kalman, q 8 dB²/s", .kalman(processNoise: 8, measurementNoise: 16)),
        ("Kalman, q 16 dB²/s", .kalman(processNoise: 16, measurementNoise: 16)),
    ]
    print("| Smoothing | median distance error (≤ 15 m) | proximity changes per pass | changes standing still | lag entering near | immediate↔far |")
    print("|---|---|---|---|---|---|")
    for (name, smoothing) in candidates {
        var parameters = BeaconRanger.Parameters(smoothing: smoothing)
        parameters.bands = bands
        let result = BeaconRangerEvaluation.evaluate(parameters)
        let lag = result.nearEntryLag.isFinite ? String(format: "%.1f s", result.nearEntryLag) : "never near"
        print("| \(name) | " + String(format: "%.2f m | %.2f | %.2f | ", result.medianDistanceError,
                                      result.proximityChangesPerPass, result.standingChanges)
              + "\(lag) | \(result.immediateFarJumps) |")
    }
    exit(0)
}
