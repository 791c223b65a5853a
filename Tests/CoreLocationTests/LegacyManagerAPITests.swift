import CoreLocation
import CoreLocationTesting
import Foundation
import Testing

/// What old apps and apps written for other Apple platforms call: the deprecated per-location
/// delegate method, and location pushes (which Linux cannot have).
@Suite struct LegacyManagerAPITests {
    final class LegacyDelegate: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
        var pairs: [(new: CLLocation, old: CLLocation)] = []
        func locationManager(_ manager: CLLocationManager, didUpdateTo newLocation: CLLocation, from oldLocation: CLLocation) {
            pairs.append((newLocation, oldLocation))
        }
    }

    final class ModernDelegate: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
        var batches = 0
        var legacyCalls = 0
        func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) { batches += 1 }
        func locationManager(_ manager: CLLocationManager, didUpdateTo newLocation: CLLocation, from oldLocation: CLLocation) {
            legacyCalls += 1
        }
    }

    @Test func aDelegateWithOnlyTheDeprecatedMethodGetsEachLocationWithTheOneBefore() throws {
        let world = try LocationTestHarness(source: "sim:walk")
        world.run {
            let delegate = LegacyDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestWhenInUseAuthorization()
            manager.startUpdatingLocation()
            world.advance(by: 10, step: 1)
            #expect(delegate.pairs.count >= 5)
            let first = delegate.pairs[0]
            #expect(!CLLocationCoordinate2DIsValid(first.old.coordinate) && first.old.horizontalAccuracy < 0)
            for (earlier, later) in zip(delegate.pairs, delegate.pairs.dropFirst()) {
                #expect(later.old === earlier.new)
            }
            #expect(delegate.pairs.last?.new === manager.location)
        }
    }

    @Test func aDelegateWithTheCurrentMethodDoesNotGetTheDeprecatedOne() throws {
        let world = try LocationTestHarness(source: "sim:walk")
        world.run {
            let delegate = ModernDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestWhenInUseAuthorization()
            manager.startUpdatingLocation()
            world.advance(by: 10, step: 1)
            #expect(delegate.batches >= 5)
            #expect(delegate.legacyCalls == 0)
        }
    }

    @Test func locationPushesFailAsOnAPlatformWithoutThemOnceOnTheCallbackContext() async throws {
        let world = try LocationTestHarness(source: "sim:walk")
        let (calls, error) = world.run { () -> (Int, (any Error)?) in
            let manager = CLLocationManager()
            var calls = 0
            var received: (any Error)?
            var token: Data? = Data([1])
            manager.startMonitoringLocationPushes { data, error in
                calls += 1
                token = data
                received = error
            }
            #expect(calls == 0, "called back on the run loop, not inside the call")
            world.settle()
            manager.stopMonitoringLocationPushes()
            #expect(token == nil)
            return (calls, received)
        }
        #expect(calls == 1)
        #expect((error as? CLLocationPushServiceError)?.code == .unsupportedPlatform)
        await #expect(throws: CLLocationPushServiceError(.unsupportedPlatform)) {
            _ = try await world.run { try await CLLocationManager().startMonitoringLocationPushes() }
        }
    }
}
