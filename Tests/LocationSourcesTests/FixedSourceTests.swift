import Foundation
import LocationCore
import LocationProtocol
import Testing
@testable import LocationSources

@Suite struct FixedSourceTests {
    @Test func emitsAtStartThenOncePerLoopSecond() {
        let loop = VirtualLoop()
        let start = loop.now
        let recorder = Recorder(loop: loop)
        let source = FixedSource(latitude: 37.3349, longitude: -122.0090, horizontalAccuracy: 12)
        source.start(on: loop, emit: recorder.emit)
        loop.run()
        #expect(recorder.fixes.count == 1)
        loop.advance(by: 10)
        let fixes = recorder.fixes
        #expect(fixes.count == 11)
        for (index, fix) in fixes.enumerated() {
            #expect(fix.timestamp == start.addingTimeInterval(Double(index)))
            #expect(recorder.fixLoopTimes[index] == fix.timestamp)
            #expect(fix.latitude == 37.3349 && fix.longitude == -122.0090)
            #expect(fix.horizontalAccuracy == 12)
            #expect(fix.isSimulated && fix.hasValidPosition)
            #expect(fix.speed == 0 && fix.speedAccuracy == 0)
            #expect(fix.course == -1 && fix.courseAccuracy == -1)
            #expect(fix.verticalAccuracy == -1)
        }
    }

    @Test func reportsAltitudeOnlyWhenGiven() throws {
        let loop = VirtualLoop()
        let recorder = Recorder(loop: loop)
        FixedSource(latitude: 0, longitude: 0, altitude: 42).start(on: loop, emit: recorder.emit)
        loop.run()
        let fix = try #require(recorder.fixes.first)
        #expect(fix.altitude == 42 && fix.verticalAccuracy == FixedSource.verticalAccuracy)
    }

    @Test func stopCancelsAndRestartEmitsAtOnce() {
        let loop = VirtualLoop()
        let recorder = Recorder(loop: loop)
        let source = FixedSource(latitude: 1, longitude: 2)
        source.start(on: loop, emit: recorder.emit)
        loop.advance(by: 3.5)
        #expect(recorder.fixes.count == 4)
        source.stop()
        #expect(loop.pendingCount == 0)
        loop.advance(by: 60)
        #expect(recorder.fixes.count == 4)

        source.start(on: loop, emit: recorder.emit)
        loop.run()
        #expect(recorder.fixes.count == 5)
        #expect(recorder.fixes.last?.timestamp == loop.now)
        loop.advance(by: 2)
        #expect(recorder.fixes.count == 7)
    }

    @Test func secondStartIsIgnored() {
        let loop = VirtualLoop()
        let recorder = Recorder(loop: loop)
        let source = FixedSource(latitude: 1, longitude: 2)
        source.start(on: loop, emit: recorder.emit)
        source.start(on: loop, emit: recorder.emit)
        loop.advance(by: 5)
        #expect(recorder.fixes.count == 6)
    }

    @Test func stopFromInsideEmitStopsAtOnce() {
        let loop = VirtualLoop()
        let recorder = Recorder(loop: loop)
        let source = FixedSource(latitude: 1, longitude: 2)
        let record = recorder.emit
        source.start(on: loop) { event in
            record(event)
            source.stop()
        }
        loop.advance(by: 10)
        #expect(recorder.fixes.count == 1)
    }

    @Test func describesItself() {
        let source = FixedSource(latitude: 37.5, longitude: -122.25, horizontalAccuracy: 7)
        #expect(source.descriptor.kind == .fixed)
        #expect(source.descriptor.typicalAccuracy == 7)
        #expect(source.descriptor.powerCost == 0)
        #expect(source.descriptor.name == "fixed:37.5,-122.25,7.0")
    }
}
