import Foundation
import LocationGeodesy
import LocationGeofencing
import LocationProtocol
import SeededRandom

// Geofence evaluation: one fix against N circular fences, three ways in the same run on the same
// seeded fences and fixes — GeofenceEvaluator (the cell-hash FenceIndex), LinearGeofenceScan (every
// fence judged on every fix: exactly the same decisions, checked), and shapely's STRtree (GEOS)
// through scripts/bench-geofences.py (skipped, loudly, when shapely is missing).
//
// Usage: corelocation-bench geofences [--sizes 1000,100000,1000000] [--region world|metro]
//          [--motion jump|drive] [--fixes K] [--accuracy A] [--seed S] [--python PYTHON] [--work DIR]
//   world: fences and fixes uniform over the Earth's surface (every cell size and latitude, poles
//          and antimeridian included; few fixes fall in a fence: the index's own cost);
//   metro: both uniform over a 1,000 × 1,000 km square of central Europe (1M fences: one per km²,
//          a fix is within reach of ~5 fences: the cost of judging candidates).
//   Radii uniform in 50 m … 2 km; fixes 10 m accuracy (margin k·a = 45 m).
//   --motion jump (default): every fix an unrelated point (the worst case for caches);
//   --motion drive: hour-long drives from random points at 15 m a fix (what one device does).

private struct GeofenceOptions {
    var sizes = [1_000, 100_000, 1_000_000]
    var region = "world"
    var motion = "jump"
    var fixes = 200_000
    var accuracy = 10.0
    var seed: UInt64 = 7
    var python = "python3"
    var work = ".build-bench"

    init(_ arguments: [String]) {
        var it = arguments.makeIterator()
        while let flag = it.next() {
            guard let value = it.next() else { geofenceUsage("missing value for \(flag)") }
            switch flag {
            case "--sizes": sizes = value.split(separator: ",").compactMap { Int($0) }
            case "--region": region = value
            case "--motion": motion = value
            case "--fixes": fixes = Int(value) ?? 0
            case "--accuracy": accuracy = Double(value) ?? 0
            case "--seed": seed = UInt64(value) ?? 0
            case "--python": python = value
            case "--work": work = value
            default: geofenceUsage("unknown option \(flag)")
            }
        }
        if sizes.isEmpty || sizes.contains(where: { $0 < 1 }) { geofenceUsage("bad --sizes") }
        if fixes < 2 || !(accuracy > 0) { geofenceUsage("--fixes must be at least 2 and --accuracy positive") }
        if region != "world" && region != "metro" { geofenceUsage("--region is world or metro") }
        if motion != "jump" && motion != "drive" { geofenceUsage("--motion is jump or drive") }
    }
}

private func geofenceUsage(_ message: String) -> Never {
    print("corelocation-bench geofences: \(message)\nusage: corelocation-bench geofences [--sizes N,N,...] "
          + "[--region world|metro] [--motion jump|drive] [--fixes K] [--accuracy A] [--seed S] [--python PYTHON] [--work DIR]")
    exit(2)
}

private struct PointSampler {
    var rng: SplitMix64
    let region: String

    mutating func point() -> (Double, Double) {
        if region == "metro" { return (rng.uniform(43.5, 52.5), rng.uniform(3.3, 16.7)) }
        return (asin(2 * rng.unit() - 1) * 180 / Double.pi, rng.uniform(-180, 180))
    }
}

private func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
          let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

private func elapsed(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    let (s, atto) = (ContinuousClock.now - start).components
    return Double(s) + Double(atto) * 1e-18
}

/// A checksum of transitions that does not depend on their order within a fix.
private func digest(_ changes: [FenceTransition]) -> UInt64 {
    changes.reduce(0) { $0 &+ (UInt64($1.key.rawValue) &* 0x9E37_79B9 ^ UInt64($1.to.rawValue) << 40) }
}

private func writeDoubles(_ values: [Double], to path: String) {
    let data = values.withUnsafeBufferPointer { Data(buffer: $0) }
    guard FileManager.default.createFile(atPath: path, contents: data) else { geofenceUsage("cannot write \(path)") }
}

private struct Row {
    var impl: String
    var fences: Int
    var nsPerFix: Double
    var bytesPerFence: Double
    var note: String
}

func runGeofenceBenchmark(_ arguments: [String]) -> Never {
    let options = GeofenceOptions(arguments)
    try? FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
    var rows: [Row] = []
    var shapelyMissing = false
    for size in options.sizes {
        var sampler = PointSampler(rng: SplitMix64(seed: options.seed &+ UInt64(size)), region: options.region)
        var circles: [FenceCircle] = []
        circles.reserveCapacity(size)
        for _ in 0..<size {
            let (lat, lon) = sampler.point()
            circles.append(FenceCircle(latitude: lat, longitude: lon, radius: sampler.rng.uniform(50, 2_000)))
        }
        let epoch = Date(timeIntervalSince1970: 1_767_225_600)
        var heading = 0.0, position = (0.0, 0.0)
        let fixes: [Fix] = (0..<options.fixes).map { i in
            if options.motion == "jump" || i % 3_600 == 0 {
                position = sampler.point()
                heading = sampler.rng.uniform(0, 360)
            } else {
                // Driving: 15 m a second, turning a little.
                heading += sampler.rng.uniform(-10, 10)
                let next = Geodesic.wgs84.direct(latitude: position.0, longitude: position.1, azimuth: heading, distance: 15)
                position = (next.latitude, next.longitude)
            }
            return Fix(latitude: position.0, longitude: position.1, horizontalAccuracy: options.accuracy,
                       timestamp: epoch.addingTimeInterval(Double(i)))
        }

        // The scan and a fresh evaluator on the same first fixes: the same transitions.
        let scanFixes = max(5, min(options.fixes, 300_000_000 / size / 100))
        let check = GeofenceEvaluator(), scan = LinearGeofenceScan()
        for circle in circles {
            _ = check.add(circle)
            _ = scan.add(circle)
        }
        var checkDigest: UInt64 = 0, scanDigest: UInt64 = 0, transitions = 0
        for fix in fixes.prefix(scanFixes) {
            let changes = check.evaluate(fix)
            checkDigest = checkDigest &* 31 &+ digest(changes)
            transitions += changes.count
        }
        _ = scan.evaluate(fixes[0])
        var scanTail: UInt64 = 0
        let scanSeconds = elapsed {
            for fix in fixes.prefix(scanFixes).dropFirst() { scanTail = scanTail &* 31 &+ digest(scan.evaluate(fix)) }
        }
        do {
            // Recompute the scan's full digest the same way as the evaluator's (first fix included).
            let again = LinearGeofenceScan()
            for circle in circles { _ = again.add(circle) }
            for fix in fixes.prefix(scanFixes) { scanDigest = scanDigest &* 31 &+ digest(again.evaluate(fix)) }
        }
        let agree = checkDigest == scanDigest
        let scanNs = scanSeconds * 1e9 / Double(scanFixes - 1)

        // The evaluator: build, first fix (resolves every unknown fence once), then steady state.
        let rssBefore = residentBytes()
        let evaluator = GeofenceEvaluator()
        let buildSeconds = elapsed { for circle in circles { _ = evaluator.add(circle) } }
        let rssDelta = residentBytes() - rssBefore
        let firstSeconds = elapsed { _ = evaluator.evaluate(fixes[0]) }
        var best = Double.infinity, sink = 0
        for _ in 0..<3 {
            let seconds = elapsed { for fix in fixes.dropFirst() { sink &+= evaluator.evaluate(fix).count } }
            best = min(best, seconds)
        }
        let indexNs = best * 1e9 / Double(fixes.count - 1)
        // Churn: remove and re-add 10,000 fences (or all), one at a time.
        let churn = min(10_000, size)
        let churnSeconds = elapsed {
            for i in 0..<churn {
                let key = FenceKey(rawValue: UInt32(i))
                evaluator.remove(key)
                _ = evaluator.add(circles[i])
            }
        }
        let bytes = Double(evaluator.memoryBytes) / Double(size)
        print("RESULT impl=swift-FenceIndex region=\(options.region) motion=\(options.motion) fences=\(size) fixes=\(fixes.count - 1) "
              + "ns_per_fix=\(fixed(indexNs, 1)) fixes_per_s=\(Int(1e9 / indexNs)) "
              + "build_ns_per_fence=\(fixed(buildSeconds * 1e9 / Double(size), 1)) first_fix_ms=\(fixed(firstSeconds * 1e3, 2)) "
              + "churn_ns_per_remove_add=\(fixed(churnSeconds * 1e9 / Double(churn), 1)) "
              + "bytes_per_fence=\(fixed(bytes, 1)) rss_bytes_per_fence=\(fixed(Double(rssDelta) / Double(size), 1)) sink=\(sink)")
        print("RESULT impl=swift-LinearScan region=\(options.region) fences=\(size) fixes=\(scanFixes - 1) "
              + "ns_per_fix=\(fixed(scanNs, 1)) fixes_per_s=\(fixed(1e9 / scanNs, 1)) bytes_per_fence=33 "
              + "same_transitions=\(agree) transitions=\(transitions) speedup=\(fixed(scanNs / indexNs, 0))")
        rows.append(Row(impl: "FenceIndex (GeofenceEvaluator)", fences: size, nsPerFix: indexNs, bytesPerFence: bytes,
                        note: "first fix \(fixed(firstSeconds * 1e3, 2)) ms; remove+add \(fixed(churnSeconds * 1e9 / Double(churn), 0)) ns"))
        rows.append(Row(impl: "linear scan", fences: size, nsPerFix: scanNs, bytesPerFence: 33,
                        note: agree ? "same transitions; index \(fixed(scanNs / indexNs, 0))× faster" : "TRANSITIONS DIFFER"))
        if !agree { print("corelocation-bench geofences: the evaluator and the linear scan disagree") }

        // shapely's STRtree on the same fences and fixes.
        let fencesPath = "\(options.work)/geofences-\(size).f64", fixesPath = "\(options.work)/geofence-fixes-\(size).f64"
        writeDoubles(circles.flatMap { [$0.latitude, $0.longitude, $0.radius] }, to: fencesPath)
        writeDoubles(fixes.flatMap { [$0.latitude, $0.longitude] }, to: fixesPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [options.python, "scripts/bench-geofences.py", "--fences", fencesPath, "--fixes", fixesPath,
                             "--accuracy", "\(options.accuracy)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationStatus == 3 {
                shapelyMissing = true
            } else {
                for line in output.split(separator: "\n") where line.hasPrefix("RESULT") {
                    print(line)
                    var fields: [String: String] = [:]
                    for pair in line.split(separator: " ") {
                        let kv = pair.split(separator: "=", maxSplits: 1)
                        if kv.count == 2 { fields[String(kv[0])] = String(kv[1]) }
                    }
                    if let ns = fields["ns_per_fix"].flatMap(Double.init), let impl = fields["impl"] {
                        let bytes = fields["rss_bytes_per_fence"].flatMap(Double.init) ?? .nan
                        rows.append(Row(impl: impl, fences: size, nsPerFix: ns, bytesPerFence: bytes,
                                        note: fields["note"]?.replacingOccurrences(of: "_", with: " ") ?? ""))
                    }
                }
            }
        } catch {
            print("corelocation-bench geofences: could not run \(options.python): \(error)")
            shapelyMissing = true
        }
    }
    if shapelyMissing {
        print("corelocation-bench geofences: SHAPELY MISSING — the STRtree (GEOS) comparison was SKIPPED "
              + "(pip install shapely numpy)")
    }
    print("\n| fences | implementation | ns per fix | fixes/s | bytes per fence | |")
    print("|---:|---|---:|---:|---:|---|")
    for row in rows {
        let rate = 1e9 / row.nsPerFix
        print("| \(row.fences) | \(row.impl) | \(fixed(row.nsPerFix, row.nsPerFix < 100 ? 1 : 0)) | "
              + "\(rate >= 100 ? "\(Int(rate.rounded()))" : fixed(rate, 1)) | "
              + "\(row.bytesPerFence.isNaN ? "—" : fixed(row.bytesPerFence, 0)) | \(row.note) |")
    }
    exit(0)
}
