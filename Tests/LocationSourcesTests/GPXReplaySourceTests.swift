import Foundation
import LocationCore
import LocationProtocol
import Testing
@testable import LocationSources

@Suite struct GPXReplaySourceTests {
    static func replay(_ fixture: String, travelSpeed: Double = GPXReplaySource.defaultTravelSpeed, speed: Double = 1,
                       for seconds: Double = 3600) throws -> (source: GPXReplaySource, recorder: Recorder, loop: VirtualLoop) {
        let loop = VirtualLoop()
        let recorder = Recorder(loop: loop)
        let document = try GPXDocument(contentsOfFile: fixturePath(fixture))
        let source = GPXReplaySource(document: document, name: "gpx:\(fixture)", travelSpeed: travelSpeed, speed: speed)
        source.start(on: loop, emit: recorder.emit)
        loop.advance(by: seconds)
        return (source, recorder, loop)
    }

    @Test func aRecordedWalkIsReplayedAtItsOwnPace() throws {
        let (source, recorder, loop) = try Self.replay("walk-recorded.gpx")
        let points = source.document.replayPoints
        let firstTime = try #require(points.first?.time)
        let duration = try #require(points.last?.time).timeIntervalSince(firstTime)
        #expect(duration == 632)
        let fixes = recorder.fixes
        try #require(fixes.count == 633, "one fix per second, both ends included")
        let start = VirtualLoop.defaultEpoch
        for (index, fix) in fixes.enumerated() {
            #expect(fix.timestamp == start.addingTimeInterval(Double(index)))
            #expect(recorder.fixLoopTimes[index] == fix.timestamp)
        }
        // Every recorded point is passed exactly at its recorded time after the start.
        for point in points {
            let offset = Int(try #require(point.time).timeIntervalSince(firstTime))
            #expect(abs(fixes[offset].latitude - point.latitude) < 1e-9 && abs(fixes[offset].longitude - point.longitude) < 1e-9)
            #expect(abs(fixes[offset].altitude - point.elevation!) < 1e-9)
        }
        #expect(recorder.events.last == .finished)
        #expect(recorder.finishedCount == 1)
        #expect(recorder.all.last?.loopTime == start.addingTimeInterval(632))
        #expect(loop.pendingCount == 0)
    }

    @Test func betweenRecordedPointsFixesAreInterpolatedEverySecond() throws {
        let (source, recorder, _) = try Self.replay("walk-recorded.gpx")
        let points = source.document.replayPoints
        let fixes = recorder.fixes
        try #require(fixes.count == 633)
        let t0 = try #require(points.first?.time)
        var checkedGaps = 0
        for (a, b) in zip(points, points.dropFirst()) {
            let ta = Int(a.time!.timeIntervalSince(t0)), tb = Int(b.time!.timeIntervalSince(t0))
            guard tb - ta >= 3 else { continue }
            checkedGaps += 1
            let leg = distance((a.latitude, a.longitude), (b.latitude, b.longitude))
            for t in (ta + 1)..<tb {
                let f = fixes[t]
                let fraction = Double(t - ta) / Double(tb - ta)
                #expect(abs(distance((a.latitude, a.longitude), (f.latitude, f.longitude)) - fraction * leg) < 0.01)
                #expect(abs(distance((f.latitude, f.longitude), (b.latitude, b.longitude)) - (1 - fraction) * leg) < 0.01)
                #expect(abs(f.altitude - (a.elevation! + (b.elevation! - a.elevation!) * fraction)) < 1e-9)
                #expect(f.verticalAccuracy > 0)
                // Inside a leg the speed is the leg's recorded pace.
                if t >= ta + 1 && leg > 0.5 {
                    #expect(abs(f.speed - leg / Double(tb - ta)) < 0.01 * max(1, f.speed))
                }
            }
        }
        #expect(checkedGaps > 20)
    }

    @Test func aWalkerMovesLikeAWalkerAcrossSegments() throws {
        let (_, recorder, _) = try Self.replay("walk-recorded.gpx")
        let fixes = recorder.fixes
        for (a, b) in zip(fixes, fixes.dropFirst()) {
            #expect(distance(a, b) < 5, "no jump (walking pace plus the recording's jitter), not even where the segments meet")
            #expect(abs(distance(a, b) - b.speed) <= max(0.02 * b.speed, 0.1))
            if b.speed > 1 { #expect(angleBetween(b.course, azimuthOfTravel(a, b)) <= 2) }
            #expect(b.speed == 0 ? b.course == -1 : b.course >= 0 && b.course < 360)
        }
    }

    @Test func aRouteWithoutTimesIsDrivenAtTheTravelSpeed() throws {
        let (source, recorder, _) = try Self.replay("route-untimed.gpx", travelSpeed: 10)
        let length = source.track.length
        #expect(abs(source.track.duration - length / 10) < 1e-6)
        let fixes = recorder.fixes
        #expect(fixes.count == Int(length / 10) + 2, "whole seconds, then the end of the route")
        let last = try #require(fixes.last)
        #expect(abs(last.latitude - 37.33770) < 1e-9 && abs(last.longitude - (-122.01480)) < 1e-9)
        #expect(abs(last.timestamp.timeIntervalSince(VirtualLoop.defaultEpoch) - length / 10) < 1e-6)
        // Straight stretches at exactly 10 m/s; corners measured across are a little slower.
        let speeds = fixes.dropFirst().map(\.speed)
        #expect(speeds.filter { abs($0 - 10) < 0.01 }.count >= speeds.count - 8)
        #expect(speeds.allSatisfy { $0 <= 10.0001 })
        #expect(fixes.allSatisfy { $0.verticalAccuracy == 8 && $0.isSimulated })
        #expect(recorder.events.last == .finished)
    }

    @Test func waypointsWithoutTimesUseTheDefaultSpeedAndHaveNoAltitude() throws {
        let (source, recorder, _) = try Self.replay("waypoints-only.gpx")
        #expect(abs(source.track.duration - source.track.length / 13.9) < 1e-6)
        let fixes = recorder.fixes
        #expect(fixes.allSatisfy { $0.verticalAccuracy == -1 && $0.altitude == 0 && $0.ellipsoidalAltitude == 0 })
        let moving = fixes.dropFirst().filter { abs($0.speed - 13.9) < 0.01 }
        #expect(moving.count > fixes.count / 2)
        #expect(recorder.events.last == .finished)
    }

    @Test func timedWaypointsKeepTheirTimesIncludingAStop() throws {
        let (source, recorder, _) = try Self.replay("waypoints-timed.gpx")
        #expect(source.track.points.map(\.time) == [0, 15, 30.5, 50.5, 80])
        let fixes = recorder.fixes
        try #require(fixes.count == 81)
        // Standing at the third waypoint from 30.5 s to 50.5 s.
        for t in 32...50 {
            #expect(fixes[t].speed == 0 && fixes[t].course == -1 && fixes[t].courseAccuracy == -1)
        }
        #expect(fixes[20].speed > 3 && fixes[60].speed > 2)
    }

    @Test func speedUpReplaysFaster() throws {
        let (_, fast, fastLoop) = try Self.replay("walk-recorded.gpx", speed: 8, for: 632.0 / 8)
        let (_, slow, _) = try Self.replay("walk-recorded.gpx")
        #expect(fast.fixes == slow.fixes)
        #expect(fast.events.last == .finished)
        #expect(fastLoop.now == VirtualLoop.defaultEpoch.addingTimeInterval(79))
    }

    @Test func startingAgainAfterTheEndReportsFinished() throws {
        let (source, recorder, loop) = try Self.replay("waypoints-timed.gpx", for: 100)
        #expect(recorder.finishedCount == 1)
        let count = recorder.fixes.count
        source.start(on: loop, emit: recorder.emit)
        loop.advance(by: 10)
        #expect(recorder.finishedCount == 2)
        #expect(recorder.fixes.count == count)
        #expect(loop.pendingCount == 0)
    }

    @Test func stopInTheMiddleThenResume() throws {
        let (source, recorder, loop) = try Self.replay("walk-recorded.gpx", for: 100)
        source.stop()
        #expect(loop.pendingCount == 0)
        loop.advance(by: 200)
        #expect(recorder.fixes.count == 101)
        source.start(on: loop, emit: recorder.emit)
        loop.run()
        #expect(recorder.fixes.last?.timestamp == VirtualLoop.defaultEpoch.addingTimeInterval(300))
        #expect(abs(recorder.fixes.last!.latitude - source.track.position(at: 300).latitude) < 1e-12)
    }

    @Test func describesItself() throws {
        let source = try GPXReplaySource(contentsOfFile: fixturePath("route-untimed.gpx"))
        #expect(source.descriptor.kind == .gpx)
        #expect(source.descriptor.powerCost == 0)
        #expect(source.descriptor.typicalAccuracy == 5)
        #expect(source.descriptor.name == "gpx:" + fixturePath("route-untimed.gpx"))
    }

    @Test func duplicatesAndBackwardTimesNeverBreakTheReplay() throws {
        let xml = """
        <gpx><trk><trkseg>
          <trkpt lat="37.0" lon="-122.0"><time>2025-01-01T00:00:10Z</time></trkpt>
          <trkpt lat="37.0" lon="-122.0"><time>2025-01-01T00:00:10Z</time></trkpt>
          <trkpt lat="37.0001" lon="-122.0"><time>2025-01-01T00:00:05Z</time></trkpt>
          <trkpt lat="37.0002" lon="-122.0"><time>2025-01-01T00:00:15Z</time></trkpt>
        </trkseg></trk></gpx>
        """
        let source = GPXReplaySource(document: try GPXDocument(data: Data(xml.utf8)), travelSpeed: 5)
        // The duplicate is dropped; the backwards leg (11 m) takes 11.1 / 5 s; the last leg keeps its 10 s.
        #expect(source.track.points.count == 3)
        #expect(abs(source.track.points[1].time - 11.1 / 5) < 0.01)
        #expect(abs(source.track.duration - source.track.points[1].time - 10) < 1e-9)
    }

    @Test func aSinglePointGivesOneFixThenFinished() throws {
        let source = GPXReplaySource(document: try GPXDocument(data: Data(#"<gpx><wpt lat="1" lon="2"/></gpx>"#.utf8)))
        let loop = VirtualLoop()
        let recorder = Recorder(loop: loop)
        source.start(on: loop, emit: recorder.emit)
        loop.advance(by: 5)
        #expect(recorder.fixes.count == 1)
        #expect(recorder.fixes.first?.speed == 0)
        #expect(recorder.events.last == .finished)
    }
}
