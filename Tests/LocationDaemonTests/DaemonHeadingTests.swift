import Foundation
import LocationCore
import LocationDaemonClient
import LocationGeomagnetism
import LocationPolicy
import LocationProtocol
import LocationSources
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemon

/// Heading streams through a real `locationd` on a temporary socket: on the wire, and through the
/// client library's link (as `CLLocationManager` uses it).
@Suite(.timeLimit(.minutes(2)))
struct DaemonHeadingTests {
    static let place = (latitude: 48.8566, longitude: 2.3522)

    static func sources() -> [any LocationSource] {
        [FixedSource(latitude: place.latitude, longitude: place.longitude), CompassSource(magneticHeading: 40)]
    }

    static func headings(_ messages: [DaemonMessage]) -> [HeadingSample] {
        messages.compactMap { if case .event(.stream(_, .heading(let sample))) = $0 { sample } else { nil } }
    }

    static func declination(on date: Date) throws -> Double {
        let year = try #require(DecimalYear.from(secondsSince1970: date.timeIntervalSince1970))
        return WorldMagneticModel.wmm2025.field(
            latitude: place.latitude, longitude: place.longitude, altitudeKilometres: 0, decimalYear: year).declination
    }

    /// Magnetic headings need no authorization; true north comes once the app is authorized and
    /// runs location updates; stopping ends the stream and the compass.
    @Test func headingsOnTheWire() async throws {
        let fixture = try DaemonFixture(sources: Self.sources())
        let (client, identity, authorization) = try await fixture.welcomedClient()
        #expect(authorization.status == .notDetermined)
        client.send(.request(.startHeading(3, HeadingRequest(filter: -1))))
        #expect(await eventually(timeout: .seconds(10)) { Self.headings(client.messages).count >= 2 })
        #expect(Self.headings(client.messages).allSatisfy { $0.magneticHeading == 40 && $0.trueHeading == nil })

        try fixture.store.update { database in
            database.apps[identity.id] = AppRecord(
                status: .authorizedWhenInUse, displayName: "tests", executablePath: identity.executablePath, updated: Date())
        }
        client.send(.request(.startUpdates(4, UpdateRequest(distanceFilter: -1, pausesAutomatically: false))))
        #expect(await eventually(timeout: .seconds(10)) { Self.headings(client.messages).last?.trueHeading != nil })
        let last = try #require(Self.headings(client.messages).last)
        let expected = (40 + (try Self.declination(on: last.timestamp)) + 360).truncatingRemainder(dividingBy: 360)
        #expect(abs((last.trueHeading ?? -1) - expected) < 1e-9)

        client.send(.request(.stopHeading(3)))
        client.send(.request(.stopUpdates(4)))
        try await Task.sleep(for: .milliseconds(300))
        let stopped = Self.headings(client.messages).count
        try await Task.sleep(for: .seconds(1.2))
        #expect(Self.headings(client.messages).count == stopped, "no headings after stopHeading")
    }

    /// A compass that counts its starts and stops.
    final class CountingCompass: LocationSource, @unchecked Sendable {
        let compass = CompassSource(magneticHeading: 40)
        let runs = Locked((started: 0, stopped: 0))
        var descriptor: SourceDescriptor { compass.descriptor }
        func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
            runs.withLock { $0.started += 1 }
            compass.start(on: loop, emit: emit)
        }
        func stop() {
            runs.withLock { $0.stopped += 1 }
            compass.stop()
        }
    }

    /// A new `headingFilter` restarts the stream under the same link stream: stopping it then stops
    /// the compass, instead of leaving the first request running until the app disconnects.
    @Test func aNewHeadingFilterReplacesTheStreamAndStopStopsTheCompass() async throws {
        let compass = CountingCompass()
        let fixture = try DaemonFixture(sources: [FixedSource(latitude: Self.place.latitude, longitude: Self.place.longitude), compass])
        let provider = DaemonServiceProvider(socketPath: fixture.socketPath)
        let received = Locked(0)
        let connection = provider.connect(
            app: AppIdentity(id: "unused", displayName: "unused", executablePath: "/unused"), info: AppInfo(),
            process: ProcessStamp(pid: getpid(), startTime: 0)
        ) { event in
            if case .stream(9, .heading) = event { received.withLock { $0 += 1 } }
        }
        defer { connection.close() }
        connection.send(.startHeading(9, HeadingRequest()))
        #expect(await eventually(timeout: .seconds(10)) { received.withLock { $0 } >= 1 })
        connection.send(.startHeading(9, HeadingRequest(filter: -1)))
        #expect(await eventually(timeout: .seconds(10)) { received.withLock { $0 } >= 3 }, "every heading with the new filter")
        connection.send(.stopHeading(9))
        #expect(await eventually(timeout: .seconds(10)) {
            compass.runs.withLock { $0.stopped >= 1 && $0.started == $0.stopped }
        }, "the compass stops: \(compass.runs.withLock { $0 })")
    }

    /// Through `DaemonServiceProvider`: the link renumbers streams and passes headings on.
    @Test func headingsThroughTheClientLink() async throws {
        let fixture = try DaemonFixture(sources: Self.sources())
        let provider = DaemonServiceProvider(socketPath: fixture.socketPath)
        #expect(provider.hasHeadingSources, "the daemon has a compass, and its welcome says so")
        let received = Locked<[HeadingSample]>([])
        let connection = provider.connect(
            app: AppIdentity(id: "unused", displayName: "unused", executablePath: "/unused"), info: AppInfo(),
            process: ProcessStamp(pid: getpid(), startTime: 0)
        ) { event in
            if case .stream(9, .heading(let sample)) = event { received.withLock { $0.append(sample) } }
        }
        connection.send(.startHeading(9, HeadingRequest()))
        #expect(await eventually(timeout: .seconds(10)) { !received.withLock { $0.isEmpty } })
        try await Task.sleep(for: .seconds(1.5))
        #expect(received.withLock { $0.count } == 1, "a still compass passes the 1° filter once")
        #expect(received.withLock { $0.first?.magneticHeading } == 40)
        connection.send(.stopHeading(9))
        connection.close()
    }
}
