#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LocationGeodesy
import SeededRandom

// Times Geodesic.inverse over a fixed set of pseudo-random global pairs.
// scripts/bench-distance.sh runs this beside a C++ program doing the same with
// GeographicLib; both draw the same pairs (SplitMix64, seed and mapping below)
// and print the same checksum, so the workloads are provably identical.
//
// Usage: corelocation-bench [--count N] [--repeat R] [--seed S]
//   N: timed inverse calls per repetition (default 2,000,000, about 1 s)
//   R: repetitions; the fastest is reported, as the machine is shared
// or:    corelocation-bench nmea FILE [--repeat R] [--chunk BYTES]   (see NMEABench.swift)
// or:    corelocation-bench locationd-clients --socket PATH [--clients N] [--seconds S] --out FILE
//        (N apps on one locationd, see LocationdClients.swift)
// or:    corelocation-bench places POINTS [--repeat R] [--countries OUT]   (see PlacesBench.swift)
// or:    corelocation-bench places-once LAT LON
// or:    corelocation-bench places-polygons POINTS OUT   (polygon countries, for scripts/places/check-polygons.py)
// or:    corelocation-bench places-dump POINTS OUT [--batch]   (every answer as text, to compare two builds)
// or:    corelocation-bench fanout-floor --socket PATH --feed PORT --clients N   (see FanOutFloor.swift)
// or:    corelocation-bench geofences [--sizes N,N,...] [--region world|metro]   (see GeofenceBench.swift)
// or:    corelocation-bench approximate [--points N] [--repeat R] [--seed S]   (see ApproximateBench.swift)
// or:    corelocation-bench magnetic [POINTS] [--points N] [--repeat R] [--out FILE]   (see MagneticBench.swift)
// or:    corelocation-bench visits GEOLIFE_DATA_DIR [--accuracy M] [--radius M] [--intervals M,F,C,S]   (see VisitsBench.swift)
// or:    corelocation-bench beacons   (the beacon ranger's smoothings compared, see BeaconsBench.swift)
// or:    corelocation-bench settings-latency --socket PATH [--changes N]   (see SettingsLatency.swift)

struct Options {
    var count = 2_000_000
    var repeats = 3
    var seed: UInt64 = 42

    init(_ arguments: [String]) {
        var it = arguments.dropFirst().makeIterator()
        while let flag = it.next() {
            guard let value = it.next() else { Options.usage("missing value for \(flag)") }
            switch flag {
            case "--count": count = Options.parse(value, flag)
            case "--repeat": repeats = Options.parse(value, flag)
            case "--seed": seed = Options.parse(value, flag)
            default: Options.usage("unknown option \(flag)")
            }
        }
        if count < 1 || repeats < 1 { Options.usage("count and repeat must be positive") }
    }

    static func parse<T: FixedWidthInteger>(_ value: String, _ flag: String) -> T {
        guard let v = T(value) else { usage("bad value \(value) for \(flag)") }
        return v
    }

    static func usage(_ message: String) -> Never {
        print("corelocation-bench: \(message)\nusage: corelocation-bench [--count N] [--repeat R] [--seed S]")
        exit(2)
    }
}

/// 4,096 pairs (128 KiB): fits in cache, so the timing measures the arithmetic.
let pairCount = 4096

/// Latitude uniform by area (asin of a uniform sine), longitude uniform.
func makePairs(seed: UInt64) -> [(Double, Double, Double, Double)] {
    var rng = SplitMix64(seed: seed)
    func lat() -> Double { asin(2 * rng.unit() - 1) * (180 / Double.pi) }
    func lon() -> Double { 360 * rng.unit() - 180 }
    return (0..<pairCount).map { _ in
        let lat1 = lat(), lon1 = lon(), lat2 = lat(), lon2 = lon()
        return (lat1, lon1, lat2, lon2)
    }
}

func seconds(_ d: Duration) -> Double {
    let (s, attoseconds) = d.components
    return Double(s) + Double(attoseconds) * 1e-18
}

/// Prints a number with a fixed count of decimals, without Foundation.
func fixed(_ x: Double, _ decimals: Int) -> String {
    let scale = pow(10, Double(decimals))
    let r = (x * scale).rounded() / scale
    return "\(r)"
}

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "nmea" {
    runNMEABenchmark(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "locationd-clients" {
    runLocationdClients(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "places" {
    runPlacesBenchmark(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "places-dump" {
    runPlacesDump(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "places-polygons" {
    runPlacesPolygons(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "places-once" {
    runPlacesOnce(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "fanout-floor" {
    runFanOutFloor(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "geofences" {
    runGeofenceBenchmark(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "approximate" {
    runApproximateBenchmark(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "magnetic" {
    runMagneticBenchmark(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "visits" {
    runVisitsBenchmark(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "beacons" {
    runBeaconsBenchmark(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "settings-latency" {
    runSettingsLatency(Array(CommandLine.arguments.dropFirst(2)))
}

let options = Options(CommandLine.arguments)
let geodesic = Geodesic.wgs84
let pairs = makePairs(seed: options.seed)

// The checksum, Σ s12 over the pairs, identifies the workload and cross-checks
// the two implementations' answers.
var checksum = 0.0
for (lat1, lon1, lat2, lon2) in pairs {
    checksum += geodesic.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2).distance
}

var best = Double.infinity
var sink = 0.0
let clock = ContinuousClock()
for _ in 0..<options.repeats {
    var acc = 0.0
    let elapsed = clock.measure {
        var j = 0
        for _ in 0..<options.count {
            let (lat1, lon1, lat2, lon2) = pairs[j]
            let r = geodesic.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            acc += r.distance + r.initialAzimuth + r.finalAzimuth
            j = (j + 1) & (pairCount - 1)
        }
    }
    sink += acc
    best = min(best, seconds(elapsed))
}

let rate = Double(options.count) / best
print("RESULT impl=swift-LocationGeodesy calls=\(options.count) seconds=\(fixed(best, 4)) "
      + "rate=\(Int(rate.rounded())) ns_per_call=\(fixed(1e9 / rate, 1)) "
      + "checksum=\(checksum) sink=\(sink)")
