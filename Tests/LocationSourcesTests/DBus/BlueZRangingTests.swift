import Foundation
import LocationCore
import LocationDBus
import LocationEngine
import LocationProtocol
import LocationSources
import TestSupport
import Testing

/// The BlueZ source under the engine's beacon ranging, end to end on a real bus with dbusmock's
/// bluez5: discovery runs exactly while someone ranges, advertisements become ranged beacons, and an
/// adapter switched off is "unavailable" until it is back.
@Suite(.enabled(if: PrivateBus.isMockAvailable, PrivateBus.skipMessage), .timeLimit(.minutes(2)))
struct BlueZRangingTests {
    final class Log: Sendable {
        private let events = Locked<[BeaconScanEvent]>([])
        func record(_ event: BeaconScanEvent) { events.withLock { $0.append(event) } }
        var ranged: [[RangedBeacon]] { events.withLock { $0.compactMap { if case .ranged(let b) = $0 { b } else { nil } } } }
        var unavailable: [String] { events.withLock { $0.compactMap { if case .unavailable(let r) = $0 { r } else { nil } } } }
    }

    @Test func discoveryRunsWhileSomeoneRangesAndItsSightingsAreRanged() async throws {
        let rig = try await BlueZBeaconSourceTests.rig()
        defer { rig.stop() }
        let device = try await rig.addDevice("AA:BB:CC:DD:EE:10")
        let engine = LocationEngine(loop: RealtimeLoop(label: "test.bluez.engine"), sources: [BlueZBeaconSource(bus: rig.bus.bus)])
        #expect(engine.hasBeaconSources)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await rig.calls("StartDiscovery") == 0, "no scan while no one ranges")

        let log = Log()
        let ranging = engine.subscribeBeacons([BeaconConstraint(uuid: BlueZBeaconSourceTests.beacon.uuid)]) { log.record($0) }
        try #require(await eventuallyAsync(timeout: PrivateBus.patience) { (try? await rig.calls("StartDiscovery")) == 1 })
        try await rig.advertise(device, company: 0x004C, payload: BlueZBeaconSourceTests.iBeaconPayload, rssi: -59)
        try #require(await eventually(timeout: PrivateBus.patience) {
            log.ranged.contains { $0.contains { $0.identity == BlueZBeaconSourceTests.beacon && $0.rssi != 0 } }
        }, "the advertised beacon is ranged")

        try await rig.setPowered(false)
        try #require(await eventually(timeout: PrivateBus.patience) { !log.unavailable.isEmpty }, "ranging unavailable with the adapter off")
        try await rig.setPowered(true)
        try #require(await eventuallyAsync(timeout: PrivateBus.patience) { (try? await rig.calls("StartDiscovery")) == 2 })

        ranging.cancel()
        try #require(await eventuallyAsync(timeout: PrivateBus.patience) { (try? await rig.calls("StopDiscovery")) == 1 },
                     "discovery stops when the last subscriber goes")
    }
}
