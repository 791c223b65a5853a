import CoreLocation
import CoreLocationTesting
import Foundation
import LocationEngine
import LocationProtocol
import TestSupport
import Testing

/// `startMonitoringSignificantLocationChanges()` in-process, on virtual time.
@Suite struct SignificantChangeTests {
    /// 18 km east at 300 m/s: a minute of driving.
    static func fastDrive() -> StraightDriveSource {
        StraightDriveSource(start: (48.0, 2.0), azimuth: 90, speed: 300, name: "gps")
    }

    @Test func anEighteenKilometreDriveAt300MetresASecondGivesUpdates500MetresApartAtMostTwiceAMinute() throws {
        let world = LocationTestHarness(sources: [Self.fastDrive()])
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestWhenInUseAuthorization()
            manager.startMonitoringSignificantLocationChanges()
            world.advance(by: 60, step: 1)
            let updates = delegate.locations
            #expect(!updates.isEmpty)
            for (a, b) in zip(updates, updates.dropFirst()) { #expect(b.distance(from: a) >= 500) }
            for update in updates {
                let inTheMinute = updates.filter { $0.timestamp >= update.timestamp && $0.timestamp.timeIntervalSince(update.timestamp) < 60 }
                #expect(inTheMinute.count <= 2)
            }
            #expect(manager.location == updates.last)
            manager.stopMonitoringSignificantLocationChanges()
        }
    }

    @Test func anHourOfDrivingCostsAFractionOfTheStandardService() throws {
        func gpsSeconds(_ start: (CLLocationManager) -> Void) -> (seconds: Double, updates: Int) {
            let world = LocationTestHarness(sources: [StraightDriveSource(start: (48.0, 2.0), azimuth: 90, speed: 25, name: "gps")])
            return world.run {
                let delegate = RecordingDelegate()
                let manager = CLLocationManager()
                manager.delegate = delegate
                manager.requestWhenInUseAuthorization()
                start(manager)
                world.advance(by: 3600, step: 10)
                return (world.engine.status.energy.runningTime["gps", default: 0], delegate.locations.count)
            }
        }
        let standard = gpsSeconds { $0.startUpdatingLocation() }
        let significant = gpsSeconds { $0.startMonitoringSignificantLocationChanges() }
        #expect(standard.seconds > 3500)
        #expect(significant.seconds <= 0.05 * standard.seconds, "\(significant.seconds) s against \(standard.seconds) s")
        #expect(significant.updates >= 12 && significant.updates <= 13)
    }

    @Test func itRunsBesideTheStandardServiceAndStopsOnItsOwn() {
        let world = LocationTestHarness(sources: [StraightDriveSource(start: (48.0, 2.0), azimuth: 90, speed: 25)])
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestWhenInUseAuthorization()
            manager.startMonitoringSignificantLocationChanges()
            manager.startUpdatingLocation()
            manager.pausesLocationUpdatesAutomatically = false
            world.advance(by: 60, step: 1)
            manager.stopUpdatingLocation()
            let afterStandard = delegate.locations.count
            #expect(afterStandard > 30)
            world.advance(by: 600, step: 10)
            // The standard service stopped; significant change goes on: two more five-minute updates.
            #expect(delegate.locations.count == afterStandard + 2)
            manager.stopMonitoringSignificantLocationChanges()
            world.advance(by: 900, step: 10)
            #expect(delegate.locations.count == afterStandard + 2)
            #expect(world.engine.status.subscriberCount == 0)
        }
    }

    @Test func availabilityFollowsTheConfiguredSources() {
        LocationTestHarness(sources: [Self.fastDrive()]).run {
            #expect(CLLocationManager.significantLocationChangeMonitoringAvailable())
        }
        LocationTestHarness(sources: []).run {
            #expect(!CLLocationManager.significantLocationChangeMonitoringAvailable())
        }
    }

    @Test func aDeniedAppIsToldSo() {
        let world = LocationTestHarness(sources: [Self.fastDrive()], answer: .dontAllow)
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestWhenInUseAuthorization()
            world.settle()
            manager.startMonitoringSignificantLocationChanges()
            world.advance(by: 60, step: 1)
            #expect(delegate.locations.isEmpty)
            #expect(delegate.events.contains(.failure(.denied)))
        }
    }
}
