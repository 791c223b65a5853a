import CoreLocation
import CoreLocationTesting
import Foundation
import LocationCore
import LocationGeodesy
import TestSupport
import Testing

/// `CLMonitor` on a drive through a circle: one satisfied and one unsatisfied event after the first
/// state, each dated within 60 m (6 s at 10 m/s) of the true geodesic crossing.
@Suite struct CLMonitorDriveTests {
    @Test func drivingThroughACircleGivesOneEntryAndOneExitNearTheTrueCrossings() async throws {
        let centre = CLLocationCoordinate2D(latitude: 52.52, longitude: 13.405)
        let start = Geodesic.wgs84.direct(latitude: centre.latitude, longitude: centre.longitude, azimuth: 270, distance: 500)
        let source = StraightDriveSource(start: (start.latitude, start.longitude), azimuth: 90, speed: 10)
        let world = LocationTestHarness(sources: [source])
        try world.setAuthorization(.authorizedWhenInUse)
        let monitor = try #require(await world.run {
            let task = Task { () async throws -> CLMonitor in await CLMonitor("drive") }
            return await drive(world, until: task)
        })
        let recorder = MonitorEventRecorder(monitor.events)
        await monitor.add(CLMonitor.CircularGeographicCondition(center: centre, radius: 100), identifier: "block")
        _ = await eventually(timeout: .seconds(60)) {
            world.advance(by: 1)
            return recorder.events.count >= 3 || world.loop.now.timeIntervalSince(source.origin ?? world.loop.now) > 150
        }
        let events = recorder.events
        #expect(events.map(\.state) == [.unsatisfied, .satisfied, .unsatisfied])
        let origin = try #require(source.origin)
        // The true crossings are 400 m and 600 m along the drive.
        for (event, metres) in zip(events.dropFirst(), [400.0, 600.0]) {
            let along = event.date.timeIntervalSince(origin) * 10
            #expect(abs(along - metres) <= 60, "\(event.state) dated \(along - metres) m from the crossing")
        }
        await recorder.stop()
    }
}
