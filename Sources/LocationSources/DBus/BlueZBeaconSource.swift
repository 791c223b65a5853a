import Foundation
import LocationCore
import LocationDBus
import LocationProtocol
import Logging

/// iBeacons heard by BlueZ (`bluez`, `bluez:hci0`): `org.bluez` on the system bus.
///
/// **Scanning.** While it runs (the engine runs beacon sources only while some app ranges or monitors
/// beacons) the source sets the adapter's discovery filter to LE with duplicate reports
/// (`SetDiscoveryFilter({"Transport": "le", "DuplicateData": true})`: every advertisement, not only
/// the first of each device) and calls `StartDiscovery`; `stop()` calls `StopDiscovery`. BlueZ also
/// ends a client's discovery when the client leaves the bus.
///
/// **Sightings.** Devices (`org.bluez.Device1` under the adapter) come from `GetManagedObjects`, then
/// `InterfacesAdded` and `PropertiesChanged`. Each report of a device with Apple's manufacturer data
/// (company 0x004C) that `IBeaconAdvertisement` decodes, and an `RSSI`, is one `.beacon` sighting,
/// dated by the engine loop's clock. Anything else — other manufacturers' data, other Apple payloads,
/// a property of an unexpected type — is ignored without a word.
///
/// **Outages.** No adapter (or not the named one), the adapter removed or powered off, BlueZ not
/// running or leaving the bus, the bus unreachable, discovery refused: one `.noFix(reason:)` per
/// outage (the service turns it into `rangingUnavailable`). Discovery resumes by itself when the
/// adapter is powered again, reappears, or BlueZ comes back.
public final class BlueZBeaconSource: LocationSource {
    public static let service = "org.bluez"
    public static let adapterInterface = "org.bluez.Adapter1"
    public static let deviceInterface = "org.bluez.Device1"

    public let descriptor: SourceDescriptor
    public let bus: DBusBus
    /// The adapter's name (`hci0`), nil for the first adapter BlueZ lists.
    public let adapter: String?

    private let link: DBusServiceLink

    private struct Device {
        var manufacturerData: [UInt16: DBusValue]?
        var rssi: Int?
    }

    private struct State {
        var running = false
        var generation: UInt64 = 0
        var adapterPath: String?
        var powered = false
        var discovering = false
        var devices: [String: Device] = [:]
    }

    private let state = Locked(State())

    public init(adapter: String? = nil, bus: DBusBus = .system, name: String? = nil,
                backoff: Backoff = Backoff(initial: 0.5, maximum: 10)) {
        self.adapter = adapter
        self.bus = bus
        let name = name ?? ("bluez" + (adapter.map { ":" + $0 } ?? ""))
        descriptor = SourceDescriptor(name: name, kind: .bluez, typicalAccuracy: .infinity,
                                      power: PublishedPowerFigures.bluetoothScan, measures: .beacons)
        let sender = Self.service
        link = DBusServiceLink(
            bus: bus, service: sender,
            matches: [
                DBusMatchRule(sender: sender, interface: DBusConnection.propertiesInterface, member: "PropertiesChanged",
                              pathNamespace: "/org/bluez"),
                DBusMatchRule(sender: sender, interface: DBusConnection.objectManagerInterface, member: "InterfacesAdded"),
                DBusMatchRule(sender: sender, interface: DBusConnection.objectManagerInterface, member: "InterfacesRemoved"),
            ],
            label: name, backoff: backoff)
    }

    public func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        let generation: UInt64? = state.withLock { state in
            guard !state.running else { return nil }
            state = State(running: true, generation: state.generation &+ 1)
            return state.generation
        }
        guard let generation else { return }
        sourcesLogger.debug("started", metadata: ["source": "\(descriptor.name)"])
        link.start(on: loop, handlers: DBusServiceLink.Handlers(
            appeared: { [weak self] connection in
                self?.serviceAppeared(on: connection, generation: generation, loop: loop, emit: emit)
            },
            vanished: { [weak self] reason in
                guard let self, isCurrent(generation) else { return }
                // Whatever the outage, this client's discovery is not running (BlueZ gone, the bus
                // gone, or the source found the adapter off, removed or refusing); what is known of the
                // adapter stays until BlueZ is listed again.
                state.withLock { $0.discovering = false }
                emit(.noFix(reason: reason))
            },
            signal: { [weak self] signal in self?.received(signal, generation: generation, loop: loop, emit: emit) }))
    }

    public func stop() {
        let adapterPath: String?? = state.withLock { state in
            guard state.running else { return nil }
            defer { state = State(running: false, generation: state.generation &+ 1) }
            return state.discovering ? state.adapterPath : .some(nil)
        }
        guard let adapterPath else { return }
        link.stop { connection in
            guard let adapterPath else { return }
            connection.call(Self.adapterCall("StopDiscovery", adapterPath)) { _ in }
        }
        sourcesLogger.debug("stopped", metadata: ["source": "\(descriptor.name)"])
    }

    private func isCurrent(_ generation: UInt64) -> Bool {
        state.withLock { $0.running && $0.generation == generation }
    }

    private static func adapterCall(_ member: String, _ path: String, _ arguments: [DBusValue] = []) -> DBusMethodCall {
        DBusMethodCall(destination: service, path: path, interface: adapterInterface, member: member, arguments: arguments)
    }

    /// The adapter named `adapter` (or the first by path) among `objects`.
    private func chooseAdapter(_ objects: [String: DBusInterfaces]) -> (path: String, properties: [String: DBusValue])? {
        let adapters = objects.compactMap { path, interfaces in interfaces[Self.adapterInterface].map { (path, $0) } }
            .sorted { $0.0 < $1.0 }
        if let adapter {
            return adapters.first { $0.0 == "/org/bluez/\(adapter)" }
        }
        return adapters.first
    }

    private func serviceAppeared(on connection: DBusConnection, generation: UInt64, loop: any EngineLoop,
                                 emit: @escaping @Sendable (SourceEvent) -> Void) {
        connection.managedObjects(at: "/", on: Self.service) { [weak self] result in
            loop.execute { [weak self] in
                guard let self, isCurrent(generation) else { return }
                switch result {
                case .failure(let failure):
                    link.reportUnavailable("cannot list BlueZ's objects: \(failure)")
                case .success(let objects):
                    state.withLock { state in
                        state.devices = [:]
                        state.adapterPath = nil
                        state.discovering = false
                    }
                    guard let (path, properties) = chooseAdapter(objects) else {
                        link.reportUnavailable(adapter.map { "no Bluetooth adapter \($0)" } ?? "no Bluetooth adapter")
                        return
                    }
                    adopt(adapterPath: path, powered: properties["Powered"]?.bool ?? false, on: connection,
                          generation: generation, loop: loop, emit: emit)
                    for (objectPath, interfaces) in objects.sorted(by: { $0.key < $1.key }) {
                        guard let device = interfaces[Self.deviceInterface] else { continue }
                        update(device: objectPath, with: device, removing: [], loop: loop, emit: emit)
                    }
                }
            }
        }
    }

    /// Takes `path` as the adapter and scans on it if it is powered.
    private func adopt(adapterPath path: String, powered: Bool, on connection: DBusConnection, generation: UInt64,
                       loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        state.withLock { state in
            state.adapterPath = path
            state.powered = powered
        }
        setPowered(powered, on: connection, generation: generation, loop: loop, emit: emit)
    }

    private func setPowered(_ powered: Bool, on connection: DBusConnection, generation: UInt64, loop: any EngineLoop,
                            emit: @escaping @Sendable (SourceEvent) -> Void) {
        guard let path = state.withLock({ state -> String? in
            state.powered = powered
            if !powered { state.discovering = false }
            return state.adapterPath
        }) else { return }
        guard powered else {
            link.reportUnavailable("Bluetooth adapter \(path) is powered off")
            return
        }
        let filter = DBusValue.dictionary(keySignature: "s", valueSignature: "v", [
            DBusDictEntry(key: .string("Transport"), value: .variant(.string("le"))),
            DBusDictEntry(key: .string("DuplicateData"), value: .variant(.boolean(true))),
        ])
        connection.call(Self.adapterCall("SetDiscoveryFilter", path, [filter])) { result in
            if case .failure(let failure) = result {
                // An older BlueZ without a filter key still scans; the reports are only fewer.
                sourcesLogger.warning("discovery filter refused", metadata: ["adapter": "\(path)", "error": "\(failure)"])
            }
            connection.call(Self.adapterCall("StartDiscovery", path)) { result in
                loop.execute { [weak self] in
                    guard let self, isCurrent(generation), state.withLock({ $0.adapterPath == path && $0.powered }) else { return }
                    switch result {
                    case .success:
                        state.withLock { $0.discovering = true }
                        link.markAvailable()
                        sourcesLogger.info("scanning for beacons", metadata: ["source": "\(descriptor.name)", "adapter": "\(path)"])
                    case .failure(.remote(let name, _)) where name == "org.bluez.Error.InProgress":
                        // This client's discovery is already on (a repeated Powered true).
                        state.withLock { $0.discovering = true }
                    case .failure(let failure):
                        link.reportUnavailable("Bluetooth adapter \(path) refused to scan: \(failure)")
                    }
                }
            }
        }
    }

    private func received(_ signal: DBusSignal, generation: UInt64, loop: any EngineLoop,
                          emit: @escaping @Sendable (SourceEvent) -> Void) {
        guard isCurrent(generation), let connection = link.connection else { return }
        let adapterPath = state.withLock { $0.adapterPath }
        if let change = DBusPropertiesChanged(signal) {
            if change.interface == Self.deviceInterface {
                update(device: change.path, with: change.changed, removing: change.invalidated, loop: loop, emit: emit)
            } else if change.interface == Self.adapterInterface, change.path == adapterPath,
                      let powered = change.changed["Powered"]?.bool, powered != state.withLock({ $0.powered }) {
                setPowered(powered, on: connection, generation: generation, loop: loop, emit: emit)
            }
        } else if let added = DBusInterfacesAdded(signal) {
            if let device = added.interfaces[Self.deviceInterface] {
                update(device: added.objectPath, with: device, removing: [], loop: loop, emit: emit)
            } else if let properties = added.interfaces[Self.adapterInterface], adapterPath == nil,
                      chooseAdapter([added.objectPath: added.interfaces]) != nil {
                adopt(adapterPath: added.objectPath, powered: properties["Powered"]?.bool ?? false, on: connection,
                      generation: generation, loop: loop, emit: emit)
            }
        } else if let removed = DBusInterfacesRemoved(signal) {
            if removed.objectPath == adapterPath, removed.interfaces.contains(Self.adapterInterface) {
                state.withLock { state in
                    state.adapterPath = nil
                    state.powered = false
                    state.discovering = false
                    state.devices = [:]
                }
                link.reportUnavailable("Bluetooth adapter \(removed.objectPath) was removed")
            } else if removed.interfaces.contains(Self.deviceInterface) {
                state.withLock { $0.devices[removed.objectPath] = nil }
            }
        }
    }

    /// Folds a device's changed properties in; a report with an RSSI or manufacturer data from an
    /// iBeacon is a sighting.
    private func update(device path: String, with properties: [String: DBusValue], removing invalidated: [String],
                        loop: any EngineLoop, emit: @Sendable (SourceEvent) -> Void) {
        let now = loop.now
        let sighting: BeaconSighting? = state.withLock { state in
            guard let adapterPath = state.adapterPath, state.powered, path.hasPrefix(adapterPath + "/") else { return nil }
            var device = state.devices[path] ?? Device()
            var reported = false
            if let data = properties["ManufacturerData"] {
                device.manufacturerData = data.uint16Keyed
                reported = true
            }
            if let rssi = properties["RSSI"] {
                device.rssi = rssi.integer
                reported = true
            }
            if invalidated.contains("ManufacturerData") { device.manufacturerData = nil }
            if invalidated.contains("RSSI") { device.rssi = nil }
            state.devices[path] = device
            guard reported, let rssi = device.rssi,
                  let payload = device.manufacturerData?[IBeaconAdvertisement.appleCompanyIdentifier]?.bytes,
                  let advertisement = IBeaconAdvertisement(appleManufacturerData: payload) else { return nil }
            return BeaconSighting(identity: advertisement.identity, measuredPower: advertisement.measuredPower,
                                  rssi: rssi, timestamp: now)
        }
        if let sighting { emit(.beacon(sighting)) }
    }
}
