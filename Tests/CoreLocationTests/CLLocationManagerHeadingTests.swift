import CoreLocation
import CoreLocationTesting
import Testing

/// Apple's heading rules on a device without heading hardware: starting updates has no effect and
/// delivers nothing; `.unknown`, `.faceUp` and `.faceDown` orientations are ignored.
@Suite struct CLLocationManagerHeadingTests {
    @Test func headingDefaultsAndOrientationRules() throws {
        let world = try LocationTestHarness(source: "fixed:1,2")
        world.run {
            let manager = CLLocationManager()
            #expect(manager.headingFilter == 1)
            #expect(manager.headingOrientation == .portrait)
            manager.headingOrientation = .landscapeLeft
            for ignored in [CLDeviceOrientation.unknown, .faceUp, .faceDown] {
                manager.headingOrientation = ignored
                #expect(manager.headingOrientation == .landscapeLeft, "\(ignored) keeps the previous reference")
            }
            manager.headingFilter = kCLHeadingFilterNone
            #expect(manager.headingFilter == kCLHeadingFilterNone)
        }
    }

    /// Without heading hardware, starting heading updates has no effect, as Apple documents for such
    /// devices: no heading and no error, and the location updates running beside it carry on.
    @Test func startingHeadingWithoutHardwareLeavesLocationUpdatesRunning() throws {
        let world = try LocationTestHarness(source: "sim:walk")
        try world.setAuthorization(.authorizedWhenInUse)
        world.run {
            #expect(!CLLocationManager.headingAvailable())
            let delegate = HeadingRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.startUpdatingLocation()
            world.advance(by: 5)
            let beforeHeading = delegate.locations
            #expect(beforeHeading > 0)
            manager.startUpdatingHeading()
            world.advance(by: 30)
            let whileHeading = delegate.locations
            #expect(whileHeading >= beforeHeading + 20, "locations keep arriving while heading is on")
            manager.stopUpdatingHeading()
            world.advance(by: 10)
            #expect(delegate.locations >= whileHeading + 5, "and after heading is stopped")
            #expect(delegate.headings == 0)
            #expect(delegate.failures == 0)
            #expect(manager.heading == nil)
            manager.stopUpdatingLocation()
        }
    }
}

private final class HeadingRecorder: NSObject, CLLocationManagerDelegate {
    var headings = 0
    var locations = 0
    var failures = 0
    func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading) { headings += 1 }
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        self.locations += locations.count
    }
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) { failures += 1 }
}
