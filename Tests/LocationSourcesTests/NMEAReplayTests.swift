import Foundation
import LocationCore
import LocationProtocol
import TestSupport
import Testing
@testable import LocationSources

/// Recorded NMEA logs replayed on virtual time: pacing, re-based timestamps, stop/restart, the end.
@Suite struct NMEAReplayTests {
    static let log = fixturePath("drive.nmea")

    static func source(_ pace: NMEAReplayPace = .recorded, speed: Double = 1, path: String = log,
                       allowMissingChecksum: Bool = false) -> NMEASource {
        NMEASource(input: .file(path: path, pace: pace), allowMissingChecksum: allowMissingChecksum, speed: speed)
    }

    @Test func replaysAtTheRecordedPaceWithTimestampsRebasedToTheStart() throws {
        let expected = try ggaEpochs(ofFile: Self.log)
        let loop = VirtualLoop()
        let origin = loop.now
        let recorder = Recorder(loop: loop)
        let source = Self.source()
        source.start(on: loop, emit: recorder.emit)
        loop.advance(by: 3.5)
        #expect(recorder.events.count == 4, "epochs at 0, 1, 2 and 3 s so far")
        loop.advance(by: 200)
        source.stop()

        let events = recorder.all
        #expect(events.count == expected.count + 1)
        #expect(events.last?.event == .finished)
        let start = expected[0].timeOfDay
        for (entry, epoch) in zip(events, expected) {
            let offset = epoch.timeOfDay - start
            #expect(entry.loopTime == origin.addingTimeInterval(offset), "emitted at the recorded pace")
            switch entry.event {
            case .fix(let fix):
                #expect(abs(fix.latitude - epoch.latitude!) < 1e-9 && abs(fix.longitude - epoch.longitude!) < 1e-9)
                #expect(fix.timestamp == origin.addingTimeInterval(offset), "re-based to the start of the replay")
                #expect(fix.isSimulated && !fix.isProducedByAccessory)
            case .noFix:
                #expect(epoch.latitude == nil, "no-fix epochs stay no-fix")
            case .finished:
                Issue.record("finished too early")
            case .heading:
                Issue.record("the recording has no heading sentences")
            case .beacon:
                Issue.record("an NMEA receiver hears no beacons")
            }
        }
        #expect(recorder.fixes.count == 100)
        #expect(loop.pendingCount == 0)
    }

    @Test func fixesCarryTheLogsAltitudeSpeedCourseAndAccuracies() throws {
        let loop = VirtualLoop()
        let recorder = Recorder(loop: loop)
        let source = Self.source(.max)
        source.start(on: loop, emit: recorder.emit)
        loop.run()
        let fixes = recorder.fixes
        let moving = try #require(fixes.first { $0.speed > 5 })
        #expect(abs(moving.altitude - 239) < 5 && abs(moving.ellipsoidalAltitude - moving.altitude - 47.6) < 1e-9)
        #expect(moving.verticalAccuracy > 0 && moving.horizontalAccuracy > 0 && moving.horizontalAccuracy < 10)
        #expect(moving.course >= 0 && moving.courseAccuracy > 0 && moving.courseAccuracy < 5)
        #expect(moving.speedAccuracy > 0 && moving.speedAccuracy < 1)
        let stopped = try #require(fixes.first { $0.speed == 0 })
        #expect(stopped.course == -1 && stopped.courseAccuracy == -1, "no course while standing still")
    }

    @Test func speedScalesThePaceNotTheTimestamps() throws {
        let loop = VirtualLoop()
        let origin = loop.now
        let recorder = Recorder(loop: loop)
        let source = Self.source(speed: 10)
        source.start(on: loop, emit: recorder.emit)
        loop.advance(by: 10.45)
        source.stop()
        let fixes = recorder.fixes
        #expect(recorder.events.count == 106, "105 epochs, then the end")
        #expect(recorder.finishedCount == 1)
        #expect(fixes.last?.timestamp == origin.addingTimeInterval(104))
        #expect(recorder.fixLoopTimes.last == origin.addingTimeInterval(10.4))
    }

    @Test func asFastAsPossibleInBatches() throws {
        let loop = VirtualLoop()
        let origin = loop.now
        let recorder = Recorder(loop: loop)
        let source = Self.source(.max)
        source.start(on: loop, emit: recorder.emit)
        loop.run()
        #expect(recorder.fixes.count == 100 && recorder.finishedCount == 1)
        #expect(recorder.all.allSatisfy { $0.loopTime == origin }, "no waiting")
        #expect(recorder.fixes.map(\.timestamp) == (5...104).map { origin.addingTimeInterval(Double($0)) })
    }

    @Test func aLongLogYieldsTheLoopBetweenBatches() throws {
        // 1,000 epochs: the replay must not hold the loop for all of them at once.
        var text = ""
        for second in 0..<1000 {
            text += nmeaEpoch(time: String(format: "10%02d%02d.00", second / 60, second % 60))
        }
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let path = try temporaryFile(text, in: temporary)
        let loop = VirtualLoop()
        let recorder = Recorder(loop: loop)
        let source = Self.source(.max, path: path)
        source.start(on: loop, emit: recorder.emit)
        let interleaved = Locked<[Int]>([])
        loop.execute { interleaved.withLock { $0.append(recorder.fixes.count) } }
        loop.run()
        #expect(recorder.fixes.count == 1000)
        let seen = try #require(interleaved.withLock { $0.first })
        #expect(seen > 0 && seen < 1000, "other work ran between batches (after \(seen) fixes)")
    }

    @Test func stopRemembersThePlaceAndTheRecordedClockKeepsRunning() throws {
        let loop = VirtualLoop()
        let origin = loop.now
        let recorder = Recorder(loop: loop)
        let source = Self.source()
        source.start(on: loop, emit: recorder.emit)
        loop.advance(by: 20.5)
        source.stop()
        #expect(recorder.events.count == 21)
        #expect(loop.pendingCount == 0, "stop cancels the pending epoch")
        loop.advance(by: 30)
        #expect(recorder.events.count == 21, "a stopped source never emits")

        source.start(on: loop, emit: recorder.emit)
        loop.advance(by: 0.5)
        // Restarted at 50.5 s: the epochs that fell due while stopped were passed by.
        let resumed = try #require(recorder.fixes.dropFirst(16).first)
        #expect(resumed.timestamp == origin.addingTimeInterval(51))
        loop.advance(by: 100)
        #expect(recorder.finishedCount == 1)
        #expect(recorder.fixes.count == 16 + 54)
    }

    @Test func startingAgainAfterTheEndFinishesAtOnce() throws {
        let loop = VirtualLoop()
        let recorder = Recorder(loop: loop)
        let source = Self.source(.max)
        source.start(on: loop, emit: recorder.emit)
        loop.run()
        source.stop()
        source.start(on: loop, emit: recorder.emit)
        loop.run()
        #expect(recorder.finishedCount == 2)
        #expect(recorder.fixes.count == 100)
    }

    @Test func aFileWithoutPositionsSaysSoThenFinishes() throws {
        let loop = VirtualLoop()
        let recorder = Recorder(loop: loop)
        let source = Self.source(.max, path: fixturePath("garbage.bin"))
        source.start(on: loop, emit: recorder.emit)
        loop.run()
        #expect(recorder.events.count == 2)
        guard case .noFix(let reason) = recorder.events.first else { Issue.record("\(recorder.events)"); return }
        #expect(reason.contains("no position in the file"), "\(reason)")
        #expect(recorder.events.last == .finished)
    }

    @Test func missingChecksumsOnlyWhenAllowed() throws {
        let text = nmeaEpoch(time: "100000.00") + nmeaEpoch(time: "100001.00")
        let stripped = text.split(separator: "\r\n").map { $0.split(separator: "*")[0] + "\r\n" }.joined()
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let path = try temporaryFile(stripped, in: temporary)
        for allow in [false, true] {
            let loop = VirtualLoop()
            let recorder = Recorder(loop: loop)
            Self.source(.max, path: path, allowMissingChecksum: allow).start(on: loop, emit: recorder.emit)
            loop.run()
            #expect(recorder.fixes.count == (allow ? 2 : 0))
            #expect(recorder.finishedCount == 1)
        }
    }

    @Test func aFileThatVanishedIsReportedNotFatal() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let path = try temporaryFile(nmeaEpoch(time: "100000.00"), in: temporary)
        let source = Self.source(path: path)
        try FileManager.default.removeItem(atPath: path)
        let loop = VirtualLoop()
        let recorder = Recorder(loop: loop)
        source.start(on: loop, emit: recorder.emit)
        loop.run()
        guard case .noFix(let reason) = recorder.events.first else { Issue.record("\(recorder.events)"); return }
        #expect(reason.contains("cannot open") && reason.contains("No such file"))
        #expect(recorder.events.last == .finished)
    }
}

/// The recorded clock of a replay.
@Suite struct NMEAReplayTimelineTests {
    @Test func followsTimeOfDayAcrossMidnightAndNeverGoesBack() {
        var timeline = NMEAReplayTimeline()
        #expect(timeline.offset(timeOfDay: 86_398, time: nil) == 0)
        #expect(timeline.offset(timeOfDay: 86_399, time: nil) == 1)
        #expect(timeline.offset(timeOfDay: 0, time: nil) == 2, "midnight")
        #expect(timeline.offset(timeOfDay: nil, time: nil) == 2, "no time: with the previous epoch")
        #expect(timeline.offset(timeOfDay: 0.2, time: nil) == 2.2)
        #expect(timeline.offset(timeOfDay: 600, time: nil) == 602, "a recorded pause is kept")
        #expect(timeline.offset(timeOfDay: 300, time: nil) == 603, "backwards: one second later")
        #expect(timeline.backwardJumps == 1)
        #expect(timeline.offset(timeOfDay: nil, time: 1_749_859_200 + 301) == 604, "Unix time's time of day")
    }
}
