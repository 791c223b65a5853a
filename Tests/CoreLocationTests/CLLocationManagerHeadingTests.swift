import CoreLocation
import CoreLocationTesting
import Testing

/// Checklist §12 items 29–30 on a device without heading hardware.
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

    @Test func startingHeadingWithoutHardwareDeliversNothing() throws {
        let world = try LocationTestHarness(source: "fixed:1,2")
        try world.setAuthorization(.authorizedWhenInUse)
        world.run {
            #expect(!CLLocationManager.headingAvailable())
            let delegate = HeadingRecorder()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.startUpdatingHeading()
            world.advance(by: 60)
            #expect(delegate.headings == 0)
            #expect(manager.heading == nil)
            manager.stopUpdatingHeading()
        }
    }
}

private final class HeadingRecorder: NSObject, CLLocationManagerDelegate {
    var headings = 0
    func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading) { headings += 1 }
}
