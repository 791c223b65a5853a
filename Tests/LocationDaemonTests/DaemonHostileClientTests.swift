import Foundation
import LocationAccess
import LocationCore
import LocationEngine
import LocationPolicy
import LocationProtocol
import LocationSources
import LocationWire
import NIOCore
import TestSupport
import Testing
@testable import LocationDaemon

/// Clients that break the protocol are refused and disconnected; the others never notice.
@Suite(.timeLimit(.minutes(2)))
struct DaemonHostileClientTests {
    static let stream: StreamID = 1

    /// A daemon on a fast simulated walk with one well-behaved, authorized client receiving locations.
    static func daemonWithAWatchingClient() async throws -> (DaemonFixture, WireClient) {
        let fixture = try DaemonFixture(sources: [SimulatedRouteSource(route: .walk, speed: 20)]) { configuration in
            configuration.stalledClientTimeout = 0.5
        }
        let (client, identity, _) = try await fixture.welcomedClient()
        try fixture.store.update { database in
            database.apps[identity.id] = AppRecord(
                status: .authorizedWhenInUse, displayName: "tests", executablePath: identity.executablePath, updated: Date())
        }
        client.send(.request(.startUpdates(stream, UpdateRequest(distanceFilter: -1, pausesAutomatically: false))))
        #expect(await eventually(timeout: .seconds(10)) { !client.fixes.isEmpty })
        return (fixture, client)
    }

    /// The hostile client is refused with a reason and disconnected, and the good one keeps receiving.
    static func expectRefusedWhileOthersContinue(
        _ hostile: WireClient, _ good: WireClient, reason expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let refused = await hostile.first(timeout: 5) { if case .refused = $0 { return true } else { return false } }
        if case let .refused(reason)? = refused?.message {
            #expect(reason.contains(expected), "reason: \(reason)", sourceLocation: sourceLocation)
        } else {
            Issue.record("not refused: \(hostile.messages)", sourceLocation: sourceLocation)
        }
        #expect(await eventually(timeout: .seconds(5)) { hostile.isClosedByDaemon }, "disconnected", sourceLocation: sourceLocation)
        let before = good.fixes.count
        #expect(await eventually(timeout: .seconds(5)) { good.fixes.count >= before + 5 }, "the good client keeps receiving", sourceLocation: sourceLocation)
    }

    @Test func garbageBytes() async throws {
        let (fixture, good) = try await Self.daemonWithAWatchingClient()
        let hostile = try fixture.client()
        hostile.sendRaw(Array("GET / HTTP/1.1\r\nHost: locationd\r\n\r\n".utf8))
        await Self.expectRefusedWhileOthersContinue(hostile, good, reason: "exceeds the limit")
    }

    @Test func aFourGigabyteLengthPrefix() async throws {
        let (fixture, good) = try await Self.daemonWithAWatchingClient()
        let hostile = try fixture.client()
        hostile.sendRaw([0xFF, 0xFF, 0xFF, 0xFF, WireCodec.Kind.json.rawValue, 0x7B])
        await Self.expectRefusedWhileOthersContinue(hostile, good, reason: "exceeds the limit")
    }

    @Test func aWellFramedMessageThatIsNotJSON() async throws {
        let (fixture, good) = try await Self.daemonWithAWatchingClient()
        let hostile = try fixture.client()
        hostile.send(.hello(version: WireProtocol.version))
        hostile.sendJSONFrame("{\"request\": [1, 2")
        await Self.expectRefusedWhileOthersContinue(hostile, good, reason: "malformed")
    }

    @Test func aLocationsFrameFromAClient() async throws {
        let (fixture, good) = try await Self.daemonWithAWatchingClient()
        let hostile = try fixture.client()
        hostile.sendRaw([0, 0, 0, 3, WireCodec.Kind.locations.rawValue, 0, 0])
        await Self.expectRefusedWhileOthersContinue(hostile, good, reason: "unexpected frame kind")
    }

    @Test func requestsBeforeHello() async throws {
        let (fixture, good) = try await Self.daemonWithAWatchingClient()
        let hostile = try fixture.client()
        hostile.send(.request(.startUpdates(1, UpdateRequest())))
        await Self.expectRefusedWhileOthersContinue(hostile, good, reason: "first message must be hello")
    }

    @Test func aSecondHelloOrAnotherVersion() async throws {
        let (fixture, good) = try await Self.daemonWithAWatchingClient()
        let twice = try fixture.client()
        _ = try await twice.hello()
        twice.send(.hello(version: WireProtocol.version))
        await Self.expectRefusedWhileOthersContinue(twice, good, reason: "hello sent twice")

        let future = try fixture.client()
        future.send(.hello(version: WireProtocol.version + 1))
        await Self.expectRefusedWhileOthersContinue(future, good, reason: "wire protocol \(WireProtocol.version + 1)")

        // A client of protocol version 1 (Swift-synthesized JSON) is told both versions, not "malformed".
        let legacy = try fixture.client()
        let hello = Array(#"{"hello":{"version":1}}"#.utf8)
        legacy.sendRaw([0, 0, 0, UInt8(hello.count + 1), WireCodec.Kind.json.rawValue] + hello)
        await Self.expectRefusedWhileOthersContinue(legacy, good, reason: "speaks wire protocol 1 and locationd speaks \(WireProtocol.version)")
    }

    /// A client that floods requests and never reads: the daemon stops reading it, drops what it
    /// cannot write, and disconnects it once it has been stuck for the stall timeout.
    @Test func aClientThatNeverReads() async throws {
        let (fixture, good) = try await Self.daemonWithAWatchingClient()
        let hostile = try fixture.client(reading: false)
        hostile.send(.hello(version: WireProtocol.version))
        hostile.send(.request(.startUpdates(1, UpdateRequest(distanceFilter: -1, pausesAutomatically: false))))
        var flood = ByteBuffer()
        for _ in 0..<20_000 { try WireCodec.encode(ClientMessage.listApps, into: &flood) }
        let bytes = Array(flood.readableBytesView)
        let writer = Thread { hostile.sendRaw(bytes) }
        writer.start()
        #expect(await eventually(timeout: .seconds(15)) { hostile.isHungUp }, "the daemon disconnects the stuck client")
        let before = good.fixes.count
        #expect(await eventually(timeout: .seconds(5)) { good.fixes.count >= before + 5 }, "the good client keeps receiving")
        #expect(await eventually(timeout: .seconds(5)) { fixture.daemon.registryOpenChannelCount == 1 })
    }
}
