#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LocationApproximation
import LocationGeodesy
import LocationPlaces
import LocationPolicy
import SeededRandom

// Approximate regions (`PlaceApproximateRegions`): what one fix costs, and the acceptance figures.
//
// Usage: corelocation-bench approximate [--points N] [--repeat R] [--seed S]
//   N random land points (default 10,000, seeded): the share whose reported point keeps the country and
//   the city, has a radius of 1–20 km and holds the point; the cost of a region's first fix (building
//   it: density, reported point); then the cost of a fix in a known region, the best of R rounds, for the
//   same points in a new order ("jump") and for drives of 1,000 fixes 15 m apart over land ("drive",
//   each fix with the previous region, as the service asks; also once with a new layout, so that the
//   drive builds every region it enters).

func runApproximateBenchmark(_ arguments: [String]) -> Never {
    var count = 10_000
    var repeats = 5
    var seed: UInt64 = 2026
    var it = arguments.makeIterator()
    while let flag = it.next() {
        guard let value = it.next(), let number = Int(value), number > 0 else { approximateUsage("bad or missing value for \(flag)") }
        switch flag {
        case "--points": count = number
        case "--repeat": repeats = number
        case "--seed": seed = UInt64(number)
        default: approximateUsage("unknown option \(flag)")
        }
    }
    let database: PlacesDatabase
    switch PlacesDatabase.shared {
    case .success(let opened): database = opened
    case .failure(let error): approximateUsage("\(error)")
    }
    var generator = SplitMix64(seed: seed)
    let seedBytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let regions = PlaceApproximateRegions(database: database, seed: ApproximateRegionsSeed(bytes: seedBytes)!)

    var points: [(latitude: Double, longitude: Double, hit: ReverseHit)] = []
    while points.count < count {
        let z = generator.uniform(-1, 1)
        let latitude = asin(z) * 180 / .pi, longitude = generator.uniform(-180, 180)
        if let hit = database.reverseLookup(latitude: latitude, longitude: longitude), hit.surface == .land {
            points.append((latitude, longitude, hit))
        }
    }

    // First fixes: every region built.
    let clock = ContinuousClock()
    var countryKept = 0, inCity = 0, cityKept = 0, radiusInRange = 0, held = 0
    var reported: [ApproximateRegion] = []
    reported.reserveCapacity(count)
    let built = clock.measure {
        for point in points { reported.append(regions.region(latitude: point.latitude, longitude: point.longitude)) }
    }
    for (point, region) in zip(points, reported) {
        let hit = database.reverseLookup(latitude: region.latitude, longitude: region.longitude)
        if hit?.surface == .land, hit?.polygonCountry == point.hit.polygonCountry { countryKept += 1 }
        if let place = point.hit.place {
            inCity += 1
            if hit?.place == place { cityKept += 1 }
        }
        if region.radius >= 1_000, region.radius <= 20_000 { radiusInRange += 1 }
        let distance = Geodesic.wgs84.distance(latitude1: point.latitude, longitude1: point.longitude,
                                               latitude2: region.latitude, longitude2: region.longitude)
        if distance <= region.radius { held += 1 }
    }
    print("approximate: \(count) random land points (seed \(seed))")
    print("  country kept \(percent(countryKept, count)), city kept \(percent(cityKept, inCity)) of \(inCity) in a city, "
          + "radius 1–20 km \(percent(radiusInRange, count)), truth within the radius \(percent(held, count))")
    print("  first fix in a region (builds it): \(fixed(seconds(built) / Double(count) * 1e6, 1)) µs")

    // Known regions, points in a new order.
    var shuffled = points
    shuffled.shuffle(using: &generator)
    var checksum: UInt64 = 0
    var best = Double.infinity
    for _ in 0..<repeats {
        let elapsed = clock.measure {
            for point in shuffled { checksum &+= regions.region(latitude: point.latitude, longitude: point.longitude).id }
        }
        best = min(best, seconds(elapsed) / Double(count))
    }
    print("  jump (known regions): \(fixed(best * 1e9, 0)) ns a fix")

    // Drives: 1,000 fixes 15 m apart, the heading wandering, each with the previous region.
    let driveCount = max(1, count / 1_000)
    var drives: [[(Double, Double)]] = []
    for index in 0..<driveCount {
        var position = (points[index].latitude, points[index].longitude)
        var heading = generator.uniform(0, 360)
        var fixes: [(Double, Double)] = []
        for _ in 0..<1_000 {
            fixes.append(position)
            heading += generator.uniform(-10, 10)
            let next = Geodesic.wgs84.direct(latitude: position.0, longitude: position.1, azimuth: heading, distance: 15)
            position = (next.latitude, next.longitude)
        }
        drives.append(fixes)
    }
    func drive(_ regions: PlaceApproximateRegions) {
        for fixes in drives {
            var previous: ApproximateRegion?
            for (latitude, longitude) in fixes {
                let region = regions.region(latitude: latitude, longitude: longitude, previous: previous)
                checksum &+= region.id
                previous = region
            }
        }
    }
    // Cold: a new layout, so every region on the way is built by the drive itself.
    let fresh = PlaceApproximateRegions(database: database, seed: ApproximateRegionsSeed(bytes: seedBytes.reversed())!)
    let cold = seconds(clock.measure { drive(fresh) }) / Double(driveCount * 1_000)
    drive(regions)
    best = .infinity
    for _ in 0..<repeats {
        best = min(best, seconds(clock.measure { drive(regions) }) / Double(driveCount * 1_000))
    }
    print("  drive (\(driveCount) × 1,000 fixes, 15 m apart, with hysteresis): \(fixed(best * 1e9, 0)) ns a fix; "
          + "the first time, regions built on the way: \(fixed(cold * 1e9, 0)) ns a fix")
    print("  checksum \(checksum)")
    exit(0)
}

private func percent(_ part: Int, _ whole: Int) -> String {
    whole == 0 ? "–" : "\(fixed(100 * Double(part) / Double(whole), 2)) %"
}

private func approximateUsage(_ message: String) -> Never {
    print("corelocation-bench approximate: \(message)\nusage: corelocation-bench approximate [--points N] [--repeat R] [--seed S]")
    exit(2)
}
