import CoreLocation
import CoreLocationTesting
import Foundation
import LocationPolicy
import LocationProtocol
import Testing

/// Authorization requests and changes, by Apple's documented rules: the delegate hears the status
/// right after creation and on every change; When-In-Use is asked only from `.notDetermined`, Always
/// once more from `.authorizedWhenInUse`; missing usage descriptions fail at once; the device-wide
/// switch wins.
@Suite struct CLLocationManagerAuthorizationTests {
    @Test func delegateIsToldTheStatusRightAfterCreation() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405")
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            #expect(manager.authorizationStatus == .notDetermined)
            #expect(delegate.events.isEmpty, "delivered on the run loop, not inside init")
            world.settle()
            #expect(delegate.events == [.authorization(.notDetermined, .fullAccuracy), .legacyAuthorization(.notDetermined)])
        }
    }

    @Test func aDelegateAssignedLaterStillGetsTheInitialCallbackOnce() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405")
        world.run {
            let manager = CLLocationManager()
            world.settle()
            let delegate = RecordingDelegate()
            manager.delegate = delegate
            world.settle()
            manager.delegate = delegate
            world.settle()
            #expect(delegate.authorizationEvents == [.authorization(.notDetermined, .fullAccuracy)])
        }
    }

    @Test func whenInUseRequestPromptsOnceAndReportsTheAnswer() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405", answer: .allowWhileUsing(precise: true))
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            world.settle()
            delegate.clear()
            manager.requestWhenInUseAuthorization()
            world.settle()
            #expect(manager.authorizationStatus == .authorizedWhenInUse)
            #expect(delegate.events == [.authorization(.authorizedWhenInUse, .fullAccuracy), .legacyAuthorization(.authorizedWhenInUse)])
            #expect(world.prompter.requests.count == 1)
            #expect(world.prompter.requests.first?.usageDescription == "Shows where you are.")

            // Once determined, the request does nothing and calls nothing.
            delegate.clear()
            manager.requestWhenInUseAuthorization()
            world.settle()
            #expect(delegate.events.isEmpty)
            #expect(world.prompter.requests.count == 1)
        }
    }

    @Test func missingUsageDescriptionFailsAtOnceWithoutAPrompt() throws {
        var info = LocationTestHarness.defaultInfo
        info.whenInUseUsageDescription = nil
        let world = try LocationTestHarness(source: "fixed:52.52,13.405", app: LocationTestHarness.defaultApp, info: info)
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            world.settle()
            delegate.clear()
            manager.requestWhenInUseAuthorization()
            manager.requestAlwaysAuthorization()
            world.settle()
            #expect(world.prompter.requests.isEmpty)
            #expect(manager.authorizationStatus == .notDetermined)
            #expect(delegate.events.isEmpty)
        }
    }

    @Test func alwaysNeedsItsOwnUsageDescription() throws {
        var info = LocationTestHarness.defaultInfo
        info.alwaysAndWhenInUseUsageDescription = nil
        let world = try LocationTestHarness(source: "fixed:52.52,13.405", app: LocationTestHarness.defaultApp, info: info)
        world.run {
            let manager = CLLocationManager()
            manager.requestAlwaysAuthorization()
            world.settle()
            #expect(world.prompter.requests.isEmpty)
            #expect(manager.authorizationStatus == .notDetermined)
        }
    }

    @Test func allowWhileUsingOnAnAlwaysRequestGrantsProvisionalAlways() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405", answer: .allowWhileUsing(precise: true))
        world.run {
            let manager = CLLocationManager()
            manager.requestAlwaysAuthorization()
            world.settle()
            #expect(manager.authorizationStatus == .authorizedAlways)
            #expect(world.prompter.requests.first?.kind == .initial)
            #expect(world.prompter.requests.first?.usageDescription == "Tracks your trips in the background.")
        }
    }

    @Test func alwaysCanBeRequestedOnceAfterWhenInUse() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405", answer: .allowWhileUsing(precise: true))
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestWhenInUseAuthorization()
            world.settle()
            delegate.clear()

            world.prompter.answer = .keepWhileUsing
            manager.requestAlwaysAuthorization()
            world.settle()
            #expect(world.prompter.requests.last?.kind == .upgradeToAlways)
            #expect(manager.authorizationStatus == .authorizedWhenInUse)
            #expect(delegate.events.isEmpty, "Keep Only While Using changes nothing, so no callback")

            world.prompter.answer = .changeToAlways
            manager.requestAlwaysAuthorization()
            world.settle()
            #expect(world.prompter.requests.count == 2, "the one-time upgrade was used")
            #expect(manager.authorizationStatus == .authorizedWhenInUse)
        }
    }

    @Test func upgradeAcceptedGivesAlways() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405", answer: .allowWhileUsing(precise: true))
        world.run {
            let manager = CLLocationManager()
            manager.requestWhenInUseAuthorization()
            world.settle()
            world.prompter.answer = .changeToAlways
            manager.requestAlwaysAuthorization()
            world.settle()
            #expect(manager.authorizationStatus == .authorizedAlways)
        }
    }

    @Test func alwaysIsIgnoredAfterAllowOnce() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405", answer: .allowOnce(precise: true))
        world.run {
            let manager = CLLocationManager()
            manager.requestWhenInUseAuthorization()
            world.settle()
            #expect(manager.authorizationStatus == .authorizedWhenInUse)
            manager.requestAlwaysAuthorization()
            world.settle()
            #expect(world.prompter.requests.count == 1)
            #expect(manager.authorizationStatus == .authorizedWhenInUse)
        }
    }

    @Test func preciseOffGivesReducedAccuracy() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405", answer: .allowWhileUsing(precise: false))
        world.run {
            let manager = CLLocationManager()
            manager.requestWhenInUseAuthorization()
            world.settle()
            #expect(manager.accuracyAuthorization == .reducedAccuracy)
        }
    }

    @Test func defaultAccuracyReducedKeyMakesPreciseOffTheDefault() throws {
        var info = LocationTestHarness.defaultInfo
        info.defaultAccuracyReduced = true
        let world = try LocationTestHarness(source: "fixed:52.52,13.405", app: LocationTestHarness.defaultApp, info: info)
        world.run {
            CLLocationManager().requestWhenInUseAuthorization()
            world.settle()
            #expect(world.prompter.requests.first?.preciseByDefault == false)
        }
    }

    @Test func servicesOffDeniesEveryAppAndOnRestoresItsStatus() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405")
        try world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestWhenInUseAuthorization()
            manager.startUpdatingLocation()
            world.advance(by: 3)
            #expect(CLLocationManager.locationServicesEnabled())
            delegate.clear()

            try world.updateStore { $0.servicesEnabled = false }
            #expect(manager.authorizationStatus == .denied)
            #expect(!CLLocationManager.locationServicesEnabled())
            #expect(delegate.events.prefix(3) == [
                .authorization(.denied, .fullAccuracy), .legacyAuthorization(.denied), .failure(.denied),
            ])
            delegate.clear()
            world.advance(by: 30)
            #expect(delegate.locations.isEmpty, "no location reaches an app while services are off")
            manager.stopUpdatingLocation()
            manager.startUpdatingLocation()
            world.advance(by: 3)
            #expect(delegate.failures == [.denied], "starting anyway while services are off is an error")

            try world.updateStore { $0.servicesEnabled = true }
            #expect(manager.authorizationStatus == .authorizedWhenInUse)
            world.advance(by: 3)
            #expect(!delegate.locations.isEmpty)
        }
    }

    @Test func revokingStopsLocationsAndReportsDenied() throws {
        let world = try LocationTestHarness(source: "sim:walk")
        try world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestWhenInUseAuthorization()
            manager.startUpdatingLocation()
            world.advance(by: 10)
            #expect(delegate.locations.count >= 10)
            delegate.clear()
            try world.updateStore { $0.apps[LocationTestHarness.defaultApp.id]?.status = .denied }
            world.advance(by: 60)
            #expect(delegate.locations.isEmpty)
            #expect(delegate.failures == [.denied])
            #expect(manager.authorizationStatus == .denied)
        }
    }

    @Test func startingWhileDeniedFailsWithDenied() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405", answer: .dontAllow)
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestWhenInUseAuthorization()
            world.settle()
            #expect(manager.authorizationStatus == .denied)
            delegate.clear()
            manager.startUpdatingLocation()
            world.advance(by: 10)
            #expect(delegate.failures == [.denied])
            #expect(delegate.locations.isEmpty)
        }
    }

    @Test func locationsWaitForAuthorization() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405", answer: nil)
        try world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.startUpdatingLocation()
            manager.requestWhenInUseAuthorization()
            world.advance(by: 10)
            #expect(delegate.locations.isEmpty, "nobody answered the prompt")
            try world.setAuthorization(.authorizedWhenInUse)
            world.advance(by: 2)
            #expect(!delegate.locations.isEmpty)
        }
    }
}
