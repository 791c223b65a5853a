import CoreLocation
import Foundation
import LocationBootstrap
@testable import LocationDaemonClient
import LocationProtocol
import LocationSources
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemon

/// `headingAvailable()`, `isRangingAvailable()` and `significantLocationChangeMonitoringAvailable()` through a
/// real `locationd` on a temporary socket: they say what the daemon's sources measure, as on an Apple device
/// they say what its hardware has — not true for every daemon.
@Suite(.timeLimit(.minutes(2)))
struct DaemonCapabilitiesTests {
    static let place = (latitude: 52.52, longitude: 13.405)

    static func receiverOnly() -> [any LocationSource] {
        [FixedSource(latitude: place.latitude, longitude: place.longitude)]
    }

    static func receiverCompassAndScanner() -> [any LocationSource] {
        receiverOnly() + [
            CompassSource(magneticHeading: 40),
            SimulatedBeaconScanner(beacons: [], device: { _ in (place.latitude, place.longitude) }, name: "beacons"),
        ]
    }

    /// The three class methods, asked through `provider` as an app of the daemon asks them.
    static func classMethods(through provider: DaemonServiceProvider) -> (heading: Bool, ranging: Bool, significant: Bool) {
        let system = LocationSystem(
            provider: provider, app: AppIdentity(id: "unused", displayName: "unused", executablePath: "/unused"),
            info: AppInfo(), process: ProcessStamp(pid: getpid(), startTime: 0))
        return LocationSystem.$override.withValue(system) {
            (CLLocationManager.headingAvailable(), CLLocationManager.isRangingAvailable(),
             CLLocationManager.significantLocationChangeMonitoringAvailable())
        }
    }

    @Test func aDaemonWithoutACompassOrScannerSaysSo() async throws {
        let fixture = try DaemonFixture(sources: Self.receiverOnly())
        let client = try fixture.client()
        client.send(.hello(version: WireProtocol.version))
        let welcome = await client.first { if case .welcome = $0 { true } else { false } }
        guard case let .welcome(_, _, capabilities)? = welcome?.message else {
            Issue.record("no welcome: \(client.messages)")
            return
        }
        #expect(capabilities == [.locations])

        let answers = Self.classMethods(through: DaemonServiceProvider(socketPath: fixture.socketPath))
        #expect(!answers.heading && !answers.ranging && answers.significant)
    }

    @Test func aDaemonWithACompassAndAScannerSaysSo() async throws {
        let fixture = try DaemonFixture(sources: Self.receiverCompassAndScanner())
        let answers = Self.classMethods(through: DaemonServiceProvider(socketPath: fixture.socketPath))
        #expect(answers.heading && answers.ranging && answers.significant)
    }

    /// With the process's connection welcomed, the answer is its welcome's (no second connection): it
    /// stays the daemon's last word after the daemon stops, where a provider that never connected can
    /// reach nothing and says no source is there.
    @Test func aWelcomedLinkAnswersFromItsWelcomeAndAnUnreachableDaemonHasNoSources() async throws {
        let fixture = try DaemonFixture(sources: Self.receiverCompassAndScanner())
        let linked = DaemonServiceProvider(socketPath: fixture.socketPath, handshakeTimeout: 1)
        let connection = linked.connect(
            app: AppIdentity(id: "unused", displayName: "unused", executablePath: "/unused"), info: AppInfo(),
            process: ProcessStamp(pid: getpid(), startTime: 0)
        ) { _ in }
        defer { connection.close() }
        // Its welcome, not the handshake timeout's settling (an event too).
        #expect(await eventually(timeout: .seconds(10)) { linked.link.capabilities != nil }, "the link was welcomed")
        #expect(linked.link.capabilities == .all)
        fixture.daemon.stop()

        let unlinked = DaemonServiceProvider(socketPath: fixture.socketPath, handshakeTimeout: 1)
        #expect(!unlinked.hasLocationSources && !unlinked.hasHeadingSources && !unlinked.hasBeaconSources)
        let answers = Self.classMethods(through: linked)
        #expect(answers.heading && answers.ranging && answers.significant)
    }
}
