import Foundation
import LocationCore
import LocationGeodesy
@testable import LocationSources
import LocationProtocol
import Testing
import TrackFixtures

/// The real tracks load, `TrueCrossings` finds the right times, and the circles it places are crossed.
@Suite struct TrueCrossingsTests {
    @Test func theRealTracksLoadWithTheirRecordedTimes() {
        let drive = RealTrack.visnjanDrive.positions
        #expect(drive.count == 104)
        #expect(drive.first?.time == 0 && drive.last?.time == 514)
        let walk = RealTrack.cerknicaWalk.positions
        #expect(walk.count == 296)
        #expect(walk.last?.time == 7190)
        for track in [drive, walk] {
            #expect(zip(track, track.dropFirst()).allSatisfy { $0.time < $1.time })
        }
        #expect(abs((walk.first?.latitude ?? 0) - 45.7) < 0.1 && abs((walk.first?.longitude ?? 0) - 14.3) < 0.1)
    }

    /// Due north at 10 m/s through a circle of 100 m centred 1 km ahead: in at about 90 s, out at
    /// about 110 s; the exact times agree with the geodesic to a millimetre of travel.
    @Test func aStraightLineThroughACircle() throws {
        let start = (latitude: 45.0, longitude: 7.0)
        let end = Geodesic.wgs84.direct(latitude: start.latitude, longitude: start.longitude, azimuth: 0, distance: 2_000)
        let centre = Geodesic.wgs84.direct(latitude: start.latitude, longitude: start.longitude, azimuth: 0, distance: 1_000)
        let track = [TimedPosition(time: 0, latitude: start.latitude, longitude: start.longitude),
                     TimedPosition(time: 200, latitude: end.latitude, longitude: end.longitude)]
        let circle = GroundCircle(identifier: "ahead", latitude: centre.latitude, longitude: centre.longitude, radius: 100)
        let crossings = TrueCrossings.crossings(of: track, circles: [circle])
        #expect(crossings.map(\.kind) == [.entry, .exit])
        #expect(crossings.map(\.identifier) == ["ahead", "ahead"])
        #expect(abs(crossings[0].time - 90) < 1e-3 && abs(crossings[1].time - 110) < 1e-3, "\(crossings)")
        #expect(!TrueCrossings.startsInside(track, circle))
    }

    @Test func aLegThatMissesTheCircleOrStartsInsideIt() {
        let track = [TimedPosition(time: 0, latitude: 45.0, longitude: 7.0),
                     TimedPosition(time: 100, latitude: 45.01, longitude: 7.0)]
        let aside = GroundCircle(identifier: "aside", latitude: 45.005, longitude: 7.01, radius: 300)
        #expect(TrueCrossings.crossings(of: track, circles: [aside]).isEmpty, "790 m to the side")
        let home = GroundCircle(identifier: "home", latitude: 45.0, longitude: 7.0, radius: 200)
        let leaving = TrueCrossings.crossings(of: track, circles: [home])
        #expect(TrueCrossings.startsInside(track, home))
        #expect(leaving.map(\.kind) == [.exit])
        #expect(abs(leaving[0].time - 200 / 1111.95 * 100) < 0.2, "200 m of 1111 m at constant speed")
    }

    @Test func crossingsOfSeveralCirclesComeInTimeOrder() {
        let track = RealTrack.cerknicaWalk.positions
        let circles = TrueCrossings.circles(crossedBy: track)
        let all = TrueCrossings.crossings(of: track, circles: circles)
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.time <= $1.time })
        for circle in circles {
            let own = all.filter { $0.identifier == circle.identifier }
            #expect(own == TrueCrossings.crossings(of: track, circles: [circle]))
            // Entries and exits alternate, starting outside.
            #expect(own.enumerated().allSatisfy { $0.element.kind == ($0.offset.isMultiple(of: 2) ? .entry : .exit) })
        }
    }

    @Test(arguments: RealTrack.allCases)
    func theCirclesPlacedOnARealTrackAreCrossedCleanly(_ track: RealTrack) {
        let positions = track.positions
        let circles = TrueCrossings.circles(crossedBy: positions)
        #expect(circles.count == 4)
        #expect(circles.map(\.identifier) == ["fence-1", "fence-2", "fence-3", "fence-4"])
        #expect(circles.map(\.radius) == [100, 150, 200, 300])
        #expect(TrueCrossings.circles(crossedBy: positions) == circles, "the same every time")
        #expect(TrueCrossings.circles(crossedBy: positions, count: 5).prefix(4) == circles[...])
        for circle in circles {
            let crossings = TrueCrossings.crossings(of: positions, circles: [circle])
            #expect(crossings.count >= 2 && crossings.count.isMultiple(of: 2), "\(circle.identifier): \(crossings.count)")
            #expect(crossings.first?.kind == .entry && crossings.last?.kind == .exit)
            #expect(!TrueCrossings.startsInside(positions, circle))
        }
    }

    /// The truth agrees with the replay: replaying the track at 1 Hz, a fix's inside/outside state
    /// changes exactly at the first fix after each true crossing.
    @Test(arguments: RealTrack.allCases)
    func theReplayCrossesWhereTheTruthSays(_ track: RealTrack) throws {
        let positions = track.positions
        let circles = TrueCrossings.circles(crossedBy: positions)
        let loop = VirtualLoop()
        let start = loop.now
        let recorder = Recorder(loop: loop)
        let source = try SourceSpec(track.spec + "?speed=600").makeSource()
        source.start(on: loop, emit: recorder.emit)
        loop.advance(by: (positions.last?.time ?? 0) / 600 + 1)
        #expect(recorder.finishedCount == 1)
        let fixes = recorder.fixes
        for circle in circles {
            let truth = TrueCrossings.crossings(of: positions, circles: [circle])
            var inside = false
            var observed: [(kind: Crossing.Kind, time: Double)] = []
            for fix in fixes {
                let now = TrueCrossings.distance(fix.latitude, fix.longitude, circle) <= circle.radius
                if now != inside {
                    observed.append((now ? .entry : .exit, fix.timestamp.timeIntervalSince(start)))
                    inside = now
                }
            }
            // A visit shorter than a second between two fixes may go unseen at 1 Hz; the circles
            // are placed so that none is.
            #expect(observed.map(\.kind) == truth.map(\.kind), "\(track) \(circle.identifier)")
            for (seen, exact) in zip(observed, truth) {
                #expect(seen.time >= exact.time - TrueCrossings.timeTolerance && seen.time < exact.time + 1,
                        "\(track) \(circle.identifier): fix at \(seen.time) s, crossing at \(exact.time) s")
            }
        }
    }
}
