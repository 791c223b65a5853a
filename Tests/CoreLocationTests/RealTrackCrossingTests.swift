import CoreLocation
import CoreLocationTesting
import Foundation
import LocationAccess
import LocationCore
import LocationProtocol
import Testing
import TrackFixtures

/// Recorded GPS tracks (a drive and a walk) replayed through the service against circles they
/// cross: every true crossing is reported, as the entry or exit it is, dated within 10 s of the
/// true crossing, and delivered as soon as a fix can tell: once the track is 4.5 × 5 m (the
/// replay's claimed accuracy) past the edge, within 2 s.
@Suite struct RealTrackCrossingTests {
    /// One reported crossing: what the service's event says (its date) and when it arrived.
    struct Reported {
        var identifier: String
        var state: FenceState
        var date: TimeInterval
        var arrived: TimeInterval
    }

    final class Events: @unchecked Sendable {
        private let events = Locked<[(FenceEvent, Date)]>([])
        let loop: VirtualLoop
        init(loop: VirtualLoop) { self.loop = loop }
        func note(_ event: ServiceEvent) {
            guard case let .fences(_, .changed(fence)) = event else { return }
            let now = loop.now
            events.withLock { $0.append((fence, now)) }
        }
        var all: [(FenceEvent, Date)] { events.withLock { $0 } }
    }

    /// How far past the edge the judge needs a fix with the replay's 5 m: 4.5 × 5 m.
    static let decidingMargin = 22.5

    /// When the track is first `decidingMargin` past the edge after a crossing (1 s steps): the
    /// earliest a fix can tell.
    static func resolvable(_ crossing: Crossing, _ circle: GroundCircle, _ positions: [TimedPosition]) -> Double {
        var time = crossing.time
        while time < (positions.last?.time ?? 0) {
            let point = TrueCrossings.position(at: time, along: positions)
            let beyond = TrueCrossings.distance(point.latitude, point.longitude, circle) - circle.radius
            if (crossing.kind == .entry ? -beyond : beyond) >= decidingMargin { return time }
            time += 1
        }
        return time
    }

    static func replay(_ track: RealTrack) throws -> (truth: [Crossing], circles: [GroundCircle], reported: [Reported]) {
        let positions = track.positions
        let circles = TrueCrossings.circles(crossedBy: positions)
        let truth = TrueCrossings.crossings(of: positions, circles: circles)
        let world = try LocationTestHarness(source: track.spec)
        try world.setAuthorization(.authorizedWhenInUse)
        let events = Events(loop: world.loop)
        let connection = world.service.connect(app: world.app, info: world.info, process: world.process) { events.note($0) }
        defer { connection.close() }
        connection.send(.openFences(.regions))
        for circle in circles {
            connection.send(.addFence(.regions, FenceDefinition(
                identifier: circle.identifier,
                condition: .circle(latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius))))
        }
        // The replay starts with the first fence's demand, at this moment of loop time.
        let origin = world.loop.now
        world.settle()
        world.advance(by: (positions.last?.time ?? 0) + 30)
        let reported = events.all.compactMap { event, arrived -> Reported? in
            guard event.state == .inside || event.state == .outside else { return nil }
            return Reported(identifier: event.identifier, state: event.state, date: event.date.timeIntervalSince(origin),
                            arrived: arrived.timeIntervalSince(origin))
        }
        return (truth, circles, reported)
    }

    @Test(arguments: RealTrack.allCases)
    func everyCrossingIsReportedWithinTenSeconds(_ track: RealTrack) throws {
        let (truth, circles, reported) = try Self.replay(track)
        let positions = track.positions
        #expect(!truth.isEmpty)
        var remaining = reported
        // The first report of each fence is its initial state (outside), not a crossing.
        for identifier in Set(truth.map(\.identifier)) {
            if let first = remaining.firstIndex(where: { $0.identifier == identifier }) {
                #expect(remaining[first].state == .outside, "\(identifier) starts outside")
                remaining.remove(at: first)
            }
        }
        var rows: [String] = []
        for crossing in truth {
            let state: FenceState = crossing.kind == .entry ? .inside : .outside
            guard let index = remaining.firstIndex(where: { $0.identifier == crossing.identifier && $0.state == state }) else {
                Issue.record("\(track) \(crossing.identifier) \(crossing.kind) at \(crossing.time) s was not reported")
                continue
            }
            let report = remaining.remove(at: index)
            let dateError = report.date - crossing.time
            let latency = report.arrived - crossing.time
            let circle = try #require(circles.first { $0.identifier == crossing.identifier })
            let earliest = Self.resolvable(crossing, circle, positions) - crossing.time
            rows.append(String(format: "%@ | %@ | %@ | %.1f | %+.1f | %+.1f | %.0f",
                               track.rawValue, crossing.identifier, crossing.kind.rawValue, crossing.time, dateError, latency, earliest))
            #expect(abs(dateError) <= 10, "\(track) \(crossing.identifier) \(crossing.kind): event dated \(dateError) s off")
            #expect(latency >= 0 && latency <= earliest + 2,
                    "\(track) \(crossing.identifier) \(crossing.kind): delivered \(latency) s after, could be \(earliest) s")
        }
        #expect(remaining.isEmpty, "reported crossings that never happened: \(remaining.map { ($0.identifier, $0.state) })")
        // The table for the issue's note: `swift test --filter RealTrackCrossingTests 2>&1 | grep 'crossing-table'`:
        // track | fence | kind | true crossing (s) | event date − truth (s) | delivered − truth (s) | earliest a fix can tell (s).
        for row in rows { print("crossing-table \(row)") }
    }
}
