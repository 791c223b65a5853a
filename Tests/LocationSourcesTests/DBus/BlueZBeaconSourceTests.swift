import Foundation
import LocationCore
import LocationDBus
import LocationProtocol
import LocationSources
import TestSupport
import Testing

/// `BlueZBeaconSource` against a real dbus-daemon and python-dbusmock's `bluez5` template: adapters and
/// devices as BlueZ publishes them, advertisements set through the mock.
@Suite(.enabled(if: PrivateBus.isMockAvailable, PrivateBus.skipMessage), .timeLimit(.minutes(2)))
struct BlueZBeaconSourceTests {
    typealias Source = BlueZBeaconSource
    static let mockInterface = "org.bluez.Mock"
    static let adapterPath = "/org/bluez/hci0"
    static let beacon = BeaconIdentity(uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 2)

    /// A bus, the bluez5 mock with adapter hci0, and a client to drive it.
    struct Rig {
        let bus: PrivateBus
        let client: DBusConnection
        let mock: DBusMock

        func bluez(_ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
            try await client.call(DBusMethodCall(destination: Source.service, path: "/", interface: BlueZBeaconSourceTests.mockInterface,
                                                 member: member, arguments: arguments))
        }

        /// Adds a device and returns its path.
        func addDevice(_ address: String) async throws -> String {
            let reply = try await bluez("AddDevice", [.string("hci0"), .string(address), .string("test device")])
            return try #require(reply.first?.string)
        }

        /// One advertisement: the device's manufacturer data and RSSI in one PropertiesChanged, as BlueZ
        /// sends them. (Sent with the mock's EmitSignal: its UpdateProperties cannot wrap a dictionary.)
        func advertise(_ path: String, company: UInt16, payload: [UInt8], rssi: Int16) async throws {
            let data = DBusValue.dictionary(keySignature: "q", valueSignature: "v", [
                DBusDictEntry(key: .uint16(company), value: .variant(.array(elementSignature: "y", payload.map { .byte($0) }))),
            ])
            let arguments = DBusValue.array(elementSignature: "v", [
                .variant(.string(Source.deviceInterface)),
                .variant(.properties(["ManufacturerData": data, "RSSI": .int16(rssi)])),
                .variant(.array(elementSignature: "s", [])),
            ])
            try await mock.mock("EmitSignal", [.string(DBusConnection.propertiesInterface), .string("PropertiesChanged"),
                                               .string("sa{sv}as"), arguments], path: path, via: client)
        }

        func setRSSI(_ path: String, _ rssi: Int16) async throws {
            try await mock.mock("UpdateProperties", [.string(Source.deviceInterface), .properties(["RSSI": .int16(rssi)])], path: path, via: client)
        }

        func setPowered(_ powered: Bool) async throws {
            try await mock.mock("UpdateProperties", [.string(Source.adapterInterface), .properties(["Powered": .boolean(powered)])],
                                path: BlueZBeaconSourceTests.adapterPath, via: client)
        }

        func calls(_ method: String) async throws -> Int {
            try await mock.callCount(method, path: BlueZBeaconSourceTests.adapterPath, via: client)
        }

        func stop() {
            mock.stop()
            client.close()
            bus.stop()
        }
    }

    static func rig(adapter: Bool = true) async throws -> Rig {
        let bus = try PrivateBus()
        let client = try await bus.connect()
        let mock = try await bus.startMock(name: Source.service, arguments: ["--template", "bluez5"])
        let rig = Rig(bus: bus, client: client, mock: mock)
        if adapter { _ = try await rig.bluez("AddAdapter", [.string("hci0"), .string("test host")]) }
        return rig
    }

    static var iBeaconPayload: [UInt8] {
        IBeaconAdvertisement(identity: beacon, measuredPower: -59).appleManufacturerData
    }

    @Test func advertisementsBecomeSightingsWhileScanning() async throws {
        let rig = try await Self.rig()
        defer { rig.stop() }
        let device = try await rig.addDevice("AA:BB:CC:DD:EE:01")
        let other = try await rig.addDevice("AA:BB:CC:DD:EE:02")
        let source = Source(bus: rig.bus.bus)
        #expect(source.descriptor.measures == .beacons)
        #expect(source.descriptor.kind == .bluez)
        #expect(source.descriptor.power == PublishedPowerFigures.bluetoothScan)
        #expect(try await rig.calls("StartDiscovery") == 0, "no scan before the engine starts the source")

        let loop = VirtualLoop(now: Date(timeIntervalSince1970: 1_700_000_000))
        let recorder = SourceRecorder()
        loop.execute { source.start(on: loop, emit: recorder.emit) }
        loop.run()
        try #require(await eventuallyAsync(timeout: PrivateBus.patience) { loop.run(); return (try? await rig.calls("StartDiscovery")) == 1 }, "scanning starts")
        let filters = try await rig.mock.mock("GetMethodCalls", [.string("SetDiscoveryFilter")], path: Self.adapterPath, via: rig.client)
        #expect("\(filters)".contains("Transport") && "\(filters)".contains("DuplicateData"), "\(filters)")

        try await rig.advertise(device, company: 0x004C, payload: Self.iBeaconPayload, rssi: -60)
        try #require(await eventually(timeout: PrivateBus.patience) { loop.run(); return !recorder.sightings.isEmpty }, "\(recorder.all)")
        #expect(recorder.sightings == [BeaconSighting(identity: Self.beacon, measuredPower: -59, rssi: -60, timestamp: loop.now)])

        // A new RSSI for the same advertisement is a new sighting.
        try await rig.setRSSI(device, -71)
        try #require(await eventually(timeout: PrivateBus.patience) { loop.run(); return recorder.sightings.count == 2 }, "\(recorder.all)")
        #expect(recorder.sightings.last?.rssi == -71)

        // Another manufacturer, and Apple data that is not an iBeacon, are ignored.
        try await rig.advertise(other, company: 0x0059, payload: Self.iBeaconPayload, rssi: -50)
        try await rig.advertise(other, company: 0x004C, payload: [0x10, 0x05, 0x01, 0x18, 0x44, 0x00, 0x00], rssi: -50)
        try await rig.setRSSI(other, -51)
        try await Task.sleep(for: .milliseconds(300))
        loop.run()
        #expect(recorder.sightings.count == 2, "\(recorder.sightings)")
        #expect(recorder.noFixReasons.isEmpty)

        loop.execute { source.stop() }
        loop.run()
        try #require(await eventuallyAsync(timeout: PrivateBus.patience) { loop.run(); return (try? await rig.calls("StopDiscovery")) == 1 }, "scanning stops with the source")
        try await rig.setRSSI(device, -40)
        try await Task.sleep(for: .milliseconds(200))
        loop.run()
        #expect(recorder.sightings.count == 2, "nothing after stop")
    }

    @Test func aPoweredOffAdapterIsNoFixAndScanningResumesWhenPowered() async throws {
        let rig = try await Self.rig()
        defer { rig.stop() }
        let device = try await rig.addDevice("AA:BB:CC:DD:EE:03")
        let source = Source(adapter: "hci0", bus: rig.bus.bus)
        let recorder = SourceRecorder()
        source.start(on: RealtimeLoop(label: "test.bluez.power"), emit: recorder.emit)
        defer { source.stop() }
        try #require(await eventuallyAsync(timeout: PrivateBus.patience) { (try? await rig.calls("StartDiscovery")) == 1 })
        try await rig.advertise(device, company: 0x004C, payload: Self.iBeaconPayload, rssi: -65)
        try #require(await eventually(timeout: PrivateBus.patience) { recorder.sightings.count == 1 })

        try await rig.setPowered(false)
        try #require(await eventually(timeout: PrivateBus.patience) { !recorder.noFixReasons.isEmpty }, "\(recorder.all)")
        #expect(recorder.noFixReasons.first?.contains("powered off") == true)
        try await rig.setRSSI(device, -66)
        try await Task.sleep(for: .milliseconds(200))
        #expect(recorder.sightings.count == 1, "no sightings while the adapter is off")

        try await rig.setPowered(true)
        try #require(await eventuallyAsync(timeout: PrivateBus.patience) { (try? await rig.calls("StartDiscovery")) == 2 }, "scanning resumes: \(recorder.all)")
        try await rig.setRSSI(device, -67)
        try #require(await eventually(timeout: PrivateBus.patience) { recorder.sightings.count == 2 }, "\(recorder.all)")
        #expect(recorder.sightings.last?.rssi == -67)
    }

    @Test func noAdapterIsNoFixUntilOneIsAddedAndRemovingItIsNoFix() async throws {
        let rig = try await Self.rig(adapter: false)
        defer { rig.stop() }
        let source = Source(bus: rig.bus.bus)
        let recorder = SourceRecorder()
        source.start(on: RealtimeLoop(label: "test.bluez.adapter"), emit: recorder.emit)
        defer { source.stop() }
        try #require(await eventually(timeout: PrivateBus.patience) { !recorder.noFixReasons.isEmpty })
        #expect(recorder.noFixReasons == ["no Bluetooth adapter"])

        _ = try await rig.bluez("AddAdapter", [.string("hci0"), .string("test host")])
        try #require(await eventuallyAsync(timeout: PrivateBus.patience) { (try? await rig.calls("StartDiscovery")) == 1 }, "\(recorder.all)")
        let device = try await rig.addDevice("AA:BB:CC:DD:EE:04")
        try await rig.advertise(device, company: 0x004C, payload: Self.iBeaconPayload, rssi: -80)
        try #require(await eventually(timeout: PrivateBus.patience) { recorder.sightings.count == 1 }, "\(recorder.all)")

        _ = try await rig.bluez("RemoveAdapter", [.string("hci0")])
        try #require(await eventually(timeout: PrivateBus.patience) { recorder.noFixReasons.count == 2 }, "\(recorder.all)")
        #expect(recorder.noFixReasons.last?.contains("removed") == true)
    }

    @Test func bluezLeavingTheBusIsNoFix() async throws {
        let rig = try await Self.rig()
        defer { rig.stop() }
        let source = Source(bus: rig.bus.bus)
        let recorder = SourceRecorder()
        source.start(on: RealtimeLoop(label: "test.bluez.gone"), emit: recorder.emit)
        defer { source.stop() }
        try #require(await eventuallyAsync(timeout: PrivateBus.patience) { (try? await rig.calls("StartDiscovery")) == 1 })
        rig.mock.stop()
        try #require(await eventually(timeout: PrivateBus.patience) { !recorder.noFixReasons.isEmpty }, "\(recorder.all)")
        #expect(recorder.noFixReasons.first?.contains("not running") == true)
    }
}
