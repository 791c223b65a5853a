import CoreLocation
import CoreLocationTesting
import LocationPolicy
import LocationProtocol
import Testing

/// The harness's own promises: a change to the store that cannot be made is an error the test sees,
/// never a world that silently stays as it was.
@Suite struct LocationTestHarnessTests {
    struct DiskFull: Error, Equatable {}

    @Test func aStoreThatCannotBeWrittenIsAnErrorAndChangesNothing() throws {
        let world = try LocationTestHarness(source: "fixed:52.52,13.405", answer: nil)
        world.store.simulateFailure(DiskFull())
        #expect(throws: DiskFull()) { try world.setAuthorization(.authorizedWhenInUse) }
        #expect(throws: DiskFull()) { try world.updateStore { $0.servicesEnabled = false } }

        world.store.simulateFailure(nil)
        let untouched = try world.store.read()
        #expect(untouched.apps.isEmpty && untouched.servicesEnabled, "the failed changes wrote nothing")
        world.run { #expect(CLLocationManager().authorizationStatus == .notDetermined) }

        try world.setAuthorization(.authorizedWhenInUse)
        #expect(try world.store.read().apps[world.app.id]?.status == .authorizedWhenInUse)
        world.run { #expect(CLLocationManager().authorizationStatus == .authorizedWhenInUse) }
    }
}
