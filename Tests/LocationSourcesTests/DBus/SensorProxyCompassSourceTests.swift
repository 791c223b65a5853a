import Foundation
import LocationCore
import LocationDBus
import LocationProtocol
import LocationSources
import TestSupport
import Testing

/// `SensorProxyCompassSource` against a real dbus-daemon and a python-dbusmock stand-in for
/// iio-sensor-proxy's compass object (interface, path and names as upstream's `net.hadess.SensorProxy.xml`).
@Suite(.enabled(if: PrivateBus.isMockAvailable, PrivateBus.skipMessage), .timeLimit(.minutes(2)))
struct SensorProxyCompassSourceTests {
    typealias Source = SensorProxyCompassSource

    /// Starts the stand-in (`Fixtures/sensorproxy_compass.py`: the methods and properties exist before
    /// the name is owned, as with the real proxy).
    static func startProxy(on bus: PrivateBus, via client: DBusConnection, hasCompass: Bool,
                           heading: Double, denyClaim: Bool = false) async throws -> DBusMock {
        let template = fixturePath("sensorproxy_compass.py")
        return try await bus.startMock(name: Source.service, arguments: [
            "--template", template,
            "-p", #"{"HasCompass": \#(hasCompass), "CompassHeading": \#(heading), "DenyClaim": \#(denyClaim)}"#,
        ])
    }

    static func setProperties(_ properties: [String: DBusValue], on mock: DBusMock, via client: DBusConnection) async throws {
        try await mock.mock("UpdateProperties", [.string(Source.interface), .properties(properties)], path: Source.path, via: client)
    }

    @Test func claimsOnlyWhileRunningAndReportsHeadings() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let client = try await bus.connect()
        defer { client.close() }
        let mock = try await Self.startProxy(on: bus, via: client, hasCompass: true, heading: 90)
        defer { mock.stop() }
        let source = Source(bus: bus.bus)
        #expect(source.descriptor.measures == .heading)
        #expect(source.descriptor.kind == .sensorproxy)
        try await Task.sleep(for: .milliseconds(200))
        #expect(try await mock.callCount("ClaimCompass", path: Source.path, via: client) == 0, "no claim before the engine starts the source")

        let loop = RealtimeLoop(label: "test.sensorproxy")
        let recorder = SourceRecorder()
        source.start(on: loop, emit: recorder.emit)
        try #require(await eventually(timeout: PrivateBus.patience) { !recorder.headings.isEmpty }, "the current heading after the claim: \(recorder.all)")
        let first = recorder.headings[0]
        #expect(first.magneticHeading == 90)
        #expect(first.headingAccuracy == Source.headingAccuracy)
        #expect(try await mock.callCount("ClaimCompass", path: Source.path, via: client) == 1)

        try await Self.setProperties(["CompassHeading": .double(181.5)], on: mock, via: client)
        try #require(await eventually(timeout: PrivateBus.patience) { recorder.headings.contains { $0.magneticHeading == 181.5 } }, "a changed heading arrives")
        // No reading yet (-1) is not a heading.
        let count = recorder.headings.count
        try await Self.setProperties(["CompassHeading": .double(-1)], on: mock, via: client)
        try await Self.setProperties(["CompassHeading": .double(270)], on: mock, via: client)
        try #require(await eventually(timeout: PrivateBus.patience) { recorder.headings.contains { $0.magneticHeading == 270 } })
        #expect(recorder.headings.dropFirst(count).map(\.magneticHeading) == [270])

        source.stop()
        #expect(await eventuallyAsync(timeout: PrivateBus.patience) {
            (try? await mock.callCount("ReleaseCompass", path: Source.path, via: client)) == 1
        }, "the claim is released on stop")
        let stoppedAt = recorder.all.count
        try await Self.setProperties(["CompassHeading": .double(10)], on: mock, via: client)
        try await Task.sleep(for: .milliseconds(200))
        #expect(recorder.since(stoppedAt).isEmpty, "nothing after stop")
    }

    @Test func noCompassIsNoFixUntilOneAppears() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let client = try await bus.connect()
        defer { client.close() }
        let mock = try await Self.startProxy(on: bus, via: client, hasCompass: false, heading: -1)
        defer { mock.stop() }
        let source = Source(bus: bus.bus)
        let recorder = SourceRecorder()
        source.start(on: RealtimeLoop(label: "test.sensorproxy.none"), emit: recorder.emit)
        defer { source.stop() }
        try #require(await eventually(timeout: PrivateBus.patience) { !recorder.noFixReasons.isEmpty })
        #expect(recorder.noFixReasons == ["iio-sensor-proxy has no compass"])
        #expect(recorder.headings.isEmpty)
        // A compass appears (the proxy sends HasCompass with the heading).
        try await Self.setProperties(["HasCompass": .boolean(true), "CompassHeading": .double(45)], on: mock, via: client)
        try #require(await eventually(timeout: PrivateBus.patience) { !recorder.headings.isEmpty })
        #expect(recorder.headings.map(\.magneticHeading) == [45])
    }

    @Test func theProxyVanishingIsNoFixAndItsReturnRecovers() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let client = try await bus.connect()
        defer { client.close() }
        let source = Source(bus: bus.bus)
        let recorder = SourceRecorder()
        // Not running at start.
        source.start(on: RealtimeLoop(label: "test.sensorproxy.vanish"), emit: recorder.emit)
        defer { source.stop() }
        try #require(await eventually(timeout: PrivateBus.patience) { !recorder.noFixReasons.isEmpty })
        #expect(recorder.noFixReasons.first?.contains("not running") == true, "\(recorder.noFixReasons)")

        let mock = try await Self.startProxy(on: bus, via: client, hasCompass: true, heading: 12)
        try #require(await eventually(timeout: PrivateBus.patience) { !recorder.headings.isEmpty }, "headings once the proxy appears: \(recorder.all)")
        #expect(recorder.headings.first?.magneticHeading == 12)

        mock.stop()
        try #require(await eventually(timeout: PrivateBus.patience) { recorder.noFixReasons.count == 2 }, "\(recorder.all)")
        let back = try await Self.startProxy(on: bus, via: client, hasCompass: true, heading: 300)
        defer { back.stop() }
        try #require(await eventually(timeout: PrivateBus.patience) { recorder.headings.contains { $0.magneticHeading == 300 } }, "\(recorder.all)")
        #expect(try await back.callCount("ClaimCompass", path: Source.path, via: client) == 1, "claimed again from the new proxy")
    }

    @Test func aRefusedClaimIsNoFixThatSaysWhy() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let client = try await bus.connect()
        defer { client.close() }
        let mock = try await Self.startProxy(on: bus, via: client, hasCompass: true, heading: 5, denyClaim: true)
        defer { mock.stop() }
        let source = Source(bus: bus.bus)
        let recorder = SourceRecorder()
        source.start(on: RealtimeLoop(label: "test.sensorproxy.denied"), emit: recorder.emit)
        defer { source.stop() }
        try #require(await eventually(timeout: PrivateBus.patience) { !recorder.noFixReasons.isEmpty })
        let reason = try #require(recorder.noFixReasons.first)
        #expect(reason.contains(DBusFailure.accessDenied) && reason.contains("Geoclue"), "\(reason)")
        #expect(recorder.headings.isEmpty, "no heading without a claim")
    }

    @Test func theBusGoingAwayIsNoFix() async throws {
        let bus = try PrivateBus()
        let client = try await bus.connect()
        defer { client.close() }
        let mock = try await Self.startProxy(on: bus, via: client, hasCompass: true, heading: 1)
        defer { mock.stop() }
        let source = Source(bus: bus.bus, backoff: Backoff(initial: 0.05, maximum: 0.1))
        let recorder = SourceRecorder()
        source.start(on: RealtimeLoop(label: "test.sensorproxy.bus"), emit: recorder.emit)
        defer { source.stop() }
        try #require(await eventually(timeout: PrivateBus.patience) { !recorder.headings.isEmpty })
        bus.stop()
        try #require(await eventually(timeout: PrivateBus.patience) { !recorder.noFixReasons.isEmpty }, "\(recorder.all)")
        // Retries while the bus is gone are not reported again.
        try await Task.sleep(for: .milliseconds(400))
        #expect(recorder.noFixReasons.count == 1, "\(recorder.noFixReasons)")
    }
}

/// `CompassHeading` values: degrees from magnetic north, anything else no reading.
struct SensorProxyHeadingValueTests {
    @Test func onlyHeadingsWithinACircleAreSamples() {
        let now = Date(timeIntervalSince1970: 1_000)
        #expect(SensorProxyCompassSource.sample(heading: 0, at: now)?.magneticHeading == 0)
        #expect(SensorProxyCompassSource.sample(heading: 359.9, at: now)?.magneticHeading == 359.9)
        #expect(SensorProxyCompassSource.sample(heading: 360, at: now)?.magneticHeading == 0)
        for invalid in [-1, -0.001, 360.5, .nan, .infinity, -.infinity] {
            #expect(SensorProxyCompassSource.sample(heading: invalid, at: now) == nil, "\(invalid)")
        }
        #expect(SensorProxyCompassSource.sample(heading: 1, at: now)?.timestamp == now)
    }
}
