import LocationCore
import LocationDBus
import LocationSources
import TestSupport
import Testing

/// `sensorproxy` and `bluez[:ADAPTER]`: parsing, canonical spellings, and what the sources declare.
struct SourceSpecDBusTests {
    @Test(arguments: [
        ("sensorproxy", SourceSpec.sensorProxy), (" SensorProxy ", .sensorProxy),
        ("bluez", .bluez()), ("BLUEZ", .bluez()), ("bluez:hci0", .bluez(adapter: "hci0")), ("bluez: hci1 ", .bluez(adapter: "hci1")),
    ])
    func parses(_ text: String, _ expected: SourceSpec) throws {
        let spec = try SourceSpec(text)
        #expect(spec == expected)
        #expect(try SourceSpec(spec.description) == spec, "the canonical spelling parses back")
    }

    @Test(arguments: ["bluez:../hci0", "bluez:hci0/dev_1", "bluez:hci 0", "bluez:hci0?scan=active", "sensorproxy:x",
                      "bluez:" + String(repeating: "a", count: 65)])
    func refuses(_ text: String) {
        #expect(throws: SourceSpecError.self) { try SourceSpec(text) }
    }

    @Test func theSourcesDeclareWhatTheyMeasure() throws {
        let compass = try SourceSpec("sensorproxy").makeSource()
        #expect(compass is SensorProxyCompassSource)
        #expect(compass.descriptor.measures == .heading, "headingAvailable() is true with it")
        #expect(compass.descriptor.power == PublishedPowerFigures.magnetometer)
        let beacons = try SourceSpec("bluez:hci0").makeSource()
        #expect((beacons as? BlueZBeaconSource)?.adapter == "hci0")
        #expect(beacons.descriptor.measures == .beacons, "never run for locations or headings")
        #expect(beacons.descriptor.name == "bluez:hci0")
        #expect((compass as? SensorProxyCompassSource)?.bus == .system)
    }
}

/// A build without libdbus-1-dev: the D-Bus sources say why they cannot work, once, and never crash.
@Suite(.enabled(if: !DBusConnection.isSupported, "D-Bus is built in: this checks the build without libdbus-1-dev"))
struct DBusUnavailableTests {
    @Test func theSourcesReportThatLibdbusWasMissingAtBuildTime() async throws {
        for source in [try SourceSpec("sensorproxy").makeSource(), try SourceSpec("bluez").makeSource()] {
            let recorder = SourceRecorder()
            source.start(on: RealtimeLoop(label: "test.dbus.unavailable"), emit: recorder.emit)
            try #require(await eventually(timeout: PrivateBus.patience) { !recorder.noFixReasons.isEmpty })
            #expect(recorder.noFixReasons.first?.contains("libdbus-1-dev") == true, "\(recorder.noFixReasons)")
            try await Task.sleep(for: .milliseconds(100))
            #expect(recorder.all.count == 1, "reported once: \(recorder.all)")
            source.stop()
        }
    }
}
