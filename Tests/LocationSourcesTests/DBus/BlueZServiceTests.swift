import Foundation
import LocationAccess
import LocationCore
import LocationDBus
import LocationEngine
import LocationPolicy
import LocationProtocol
import LocationSources
import TestSupport
import Testing

/// BlueZ through the whole service, on a real bus with dbusmock's bluez5: what an app's ranging
/// stream and beacon fence receive (what `CLLocationManager` turns into `didRange`,
/// `didFailRangingFor` and region events) while a beacon appears, changes strength, goes quiet,
/// and the adapter is switched off and on.
@Suite(.enabled(if: PrivateBus.isMockAvailable, PrivateBus.skipMessage), .timeLimit(.minutes(2)))
struct BlueZServiceTests {
    static let app = AppIdentity(id: "com.example.beacons", displayName: "Beacons", executablePath: "/x")
    static let constraint = BeaconConstraint(uuid: BlueZBeaconSourceTests.beacon.uuid)

    final class Events: Sendable {
        private let all = Locked<[(Date, ServiceEvent)]>([])
        func record(_ event: ServiceEvent) { all.withLock { $0.append((Date(), event)) } }
        /// Each ranging of stream 1, with when it arrived.
        var ranged: [(Date, [RangedBeacon])] {
            all.withLock { $0.compactMap { if case .stream(1, .beacons(let beacons)) = $0.1 { ($0.0, beacons) } else { nil } } }
        }
        var rangingFailures: [StreamFailure] {
            all.withLock { $0.compactMap { if case .stream(1, .failed(let failure)) = $0.1 { failure } else { nil } } }
        }
        /// The door fence's states as they changed.
        var doorStates: [FenceState] {
            all.withLock {
                $0.compactMap { entry -> FenceState? in
                    guard case .fences(.regions, let update) = entry.1 else { return nil }
                    switch update {
                    case .changed(let event) where event.identifier == "door", .determined(let event) where event.identifier == "door":
                        return event.state
                    default:
                        return nil
                    }
                }
            }
        }
        func heard(after date: Date, _ beacon: (RangedBeacon) -> Bool) -> [RangedBeacon] {
            ranged.filter { $0.0 > date }.flatMap(\.1).filter { $0.rssi != 0 && beacon($0) }
        }
    }

    @Test func anAppRangesAndWatchesABeaconThroughBlueZ() async throws {
        let rig = try await BlueZBeaconSourceTests.rig()
        defer { rig.stop() }
        let device = try await rig.addDevice("AA:BB:CC:DD:EE:20")
        let engine = LocationEngine(loop: RealtimeLoop(label: "test.bluez.service"), sources: [BlueZBeaconSource(bus: rig.bus.bus)])
        let store = MemoryAuthorizationStore(AuthorizationDatabase(apps: [
            Self.app.id: AppRecord(status: .authorizedAlways, displayName: "Beacons", executablePath: "/x", updated: Date()),
        ]))
        let service = LocationService(engine: engine, store: store, prompter: nil, isAlive: { _ in true })
        let events = Events()
        let client = service.connect(app: Self.app, info: AppInfo(whenInUseUsageDescription: "x"),
                                     process: ProcessStamp(pid: 1, startTime: 1), events: events.record)
        defer { client.close() }
        client.send(.startRanging(1, Self.constraint))
        client.send(.openFences(.regions))
        client.send(.addFence(.regions, FenceDefinition(identifier: "door", condition: .beacon(uuid: Self.constraint.uuid, major: nil, minor: nil))))

        // Nothing advertises yet: scans come, empty.
        try #require(await eventually(timeout: PrivateBus.patience) { events.ranged.count >= 2 }, "scans about once a second")
        #expect(events.ranged.allSatisfy { $0.1.isEmpty })

        // The beacon advertises at -59 dBm (its power at 1 m), then at -80: further away.
        let strength = Locked<Int16?>(-59)
        let advertiser = Task {
            while !Task.isCancelled {
                if let rssi = strength.withLock({ $0 }) {
                    try? await rig.advertise(device, company: 0x004C, payload: BlueZBeaconSourceTests.iBeaconPayload, rssi: rssi)
                }
                try? await Task.sleep(for: .milliseconds(400))
            }
        }
        defer { advertiser.cancel() }
        try #require(await eventually(timeout: PrivateBus.patience) { !events.heard(after: .distantPast) { _ in true }.isEmpty },
                     "the beacon is ranged")
        #expect(await eventually(timeout: PrivateBus.patience) { events.doorStates.last == .inside }, "the door fence: inside")
        try await Task.sleep(for: .seconds(4))
        let near = try #require(events.ranged.last?.1.first)
        #expect(near.identity == BlueZBeaconSourceTests.beacon)
        #expect(near.accuracy > 0 && near.accuracy < 3, "about a metre at -59 dBm: \(near)")
        #expect(near.proximity == .immediate || near.proximity == .near)

        let weaker = Date()
        strength.withLock { $0 = -80 }
        #expect(await eventually(timeout: PrivateBus.patience) {
            events.heard(after: weaker) { $0.accuracy > 6 }.count >= 2
        }, "further at -80 dBm: \(events.ranged.suffix(3))")
        #expect(events.ranged.allSatisfy { ranging in
            ranging.1.allSatisfy { $0.identity == BlueZBeaconSourceTests.beacon }
        }, "only the beacon that satisfies the constraint")

        // It goes quiet: listed unheard, then dropped; the fence exits after its silence.
        let quiet = Date()
        strength.withLock { $0 = nil }
        #expect(await eventually(timeout: PrivateBus.patience) {
            events.ranged.last.map { $0.0 > quiet && $0.1.isEmpty } ?? false
        }, "dropped from the ranging")
        #expect(await eventually(timeout: .seconds(60)) { events.doorStates.last == .outside }, "the door fence: outside")
        #expect(events.doorStates.filter { $0 == .inside }.count == 1, "entered once: \(events.doorStates)")

        // The adapter is switched off: ranging unavailable; back on, the beacon is ranged again.
        try await rig.setPowered(false)
        #expect(await eventually(timeout: PrivateBus.patience) { events.rangingFailures.contains(.rangingUnavailable) })
        let back = Date()
        try await rig.setPowered(true)
        strength.withLock { $0 = -60 }
        #expect(await eventually(timeout: PrivateBus.patience) { !events.heard(after: back) { _ in true }.isEmpty },
                "ranging resumes when the adapter is back")
    }
}
