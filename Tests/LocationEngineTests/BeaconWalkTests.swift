import Foundation
import LocationCore
import LocationGeodesy
import LocationProtocol
import LocationSources
import Testing
@testable import LocationEngine

/// Acceptance: the built-in walk passes 1 m from each of three simulated beacons (`sim:walk;beacon:…`,
/// σ = 4 dB, lost advertisements and gaps), ranged by the engine on virtual time for ten minutes.
/// Distances are close, each beacon changes proximity a few times, without flapping and never between
/// immediate and far at once.
@Suite struct BeaconWalkTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    /// About when the walker passes each beacon, seconds into the route.
    static let passes: [TimeInterval] = [120, 300, 480]

    final class Reports: @unchecked Sendable {
        /// Per ranging: the true distance to each beacon (by minor) and what was reported.
        var items: [(distances: [UInt16: Double], beacons: [RangedBeacon])] = []
    }

    @Test func walkingPastBeacons() throws {
        let track = BuiltInRoute.walk.track
        var places: [UInt16: (latitude: Double, longitude: Double)] = [:]
        var specs = [SourceSpec.simulation(.walk)]
        for (index, nominal) in Self.passes.enumerated() {
            // 1 m to the side of where the walker is then, or once moving again after a stop.
            var time = nominal
            while track.state(at: time).speed < 1, time < nominal + 120 { time += 1 }
            let passing = track.state(at: time)
            let course = try #require(passing.course, "the walker is moving at \(time) s")
            let place = Geodesic.wgs84.direct(latitude: passing.latitude, longitude: passing.longitude,
                                              azimuth: course + 90, distance: 1)
            let minor = UInt16(index + 1)
            places[minor] = (place.latitude, place.longitude)
            specs.append(try SourceSpec("beacon:\(Self.uuid),7,\(minor),-59@\(place.latitude),\(place.longitude)"))
        }
        let beaconPlaces = places
        let sources = try SourceSpec.makeSources(specs)
        let route = try #require(sources.first as? SimulatedRouteSource)
        #expect(sources.count == 2 && sources.last?.descriptor.measures == .beacons)

        let loop = VirtualLoop()
        let engine = LocationEngine(loop: loop, sources: sources)
        let reports = Reports()
        let subscription = engine.subscribeBeacons([BeaconConstraint(uuid: UUID(uuidString: Self.uuid)!)]) { event in
            guard case .ranged(let beacons) = event else { return }
            let here = route.travellerPosition(at: loop.now)
            let distances = beaconPlaces.mapValues {
                Geodesic.wgs84.distance(latitude1: here.latitude, longitude1: here.longitude,
                                        latitude2: $0.latitude, longitude2: $0.longitude)
            }
            reports.items.append((distances, beacons))
        }
        loop.advance(by: 600)
        subscription.cancel()

        let items = reports.items
        #expect(items.count >= 599, "a ranging a second")
        #expect(items.allSatisfy { $0.beacons.map(\.identity) == $0.beacons.map(\.identity).sorted() })
        var errors: [Double] = []
        var reportedNear = 0
        for minor in places.keys.sorted() {
            let trace = items.map { item in (distance: item.distances[minor]!, beacon: item.beacons.first { $0.identity.minor == minor }) }
            #expect(trace.contains { $0.distance < 1.5 }, "the walk passes beacon \(minor)")
            #expect(trace.contains { $0.beacon == nil }, "beacon \(minor) is out of range for a while")
            for point in trace where point.distance <= 15 {
                if let beacon = point.beacon, beacon.accuracy >= 0 { errors.append(abs(beacon.accuracy - point.distance)) }
            }
            let proximities = trace.map { $0.beacon?.proximity ?? .unknown }
            var changes: [(index: Int, from: BeaconProximity, to: BeaconProximity)] = []
            for index in proximities.indices.dropFirst() where proximities[index] != proximities[index - 1] {
                changes.append((index, proximities[index - 1], proximities[index]))
            }
            if changes.contains(where: { $0.to == .near || $0.to == .immediate }) { reportedNear += 1 }
            // Truly four: heard (far), near, far again, out of range (unknown).
            #expect(changes.count <= 4, "beacon \(minor): \(changes.map { "\($0.from)→\($0.to)" })")
            for change in changes {
                #expect(Set([change.from, change.to]) != [.immediate, .far], "beacon \(minor): immediate and far one report apart")
            }
            // Flapping: back where it was within five seconds of a change between known proximities.
            for (first, second) in zip(changes, changes.dropFirst())
            where first.from != .unknown && first.to != .unknown && second.to == first.from {
                #expect(second.index - first.index > 5, "beacon \(minor) flapped \(first.from)→\(first.to)→\(second.to)")
            }
        }
        errors.sort()
        #expect(errors.count >= 30)
        let median = errors.isEmpty ? .infinity : errors[errors.count / 2]
        // Measured: 2.0 m over 99 rangings within 15 m.
        #expect(median < 2.5, "median distance error \(median) m over \(errors.count) rangings")
        // Measured: two of three; the walker's closest second to the first beacon fell in a 3 s gap
        // without advertisements, so its smoothed distance never came under 3 m.
        #expect(reportedNear >= 2, "beacons reported near: \(reportedNear) of \(places.count)")
    }
}
