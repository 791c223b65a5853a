import Foundation
import LocationCore
import LocationProtocol
import LocationWire
import NIOCore
import TestSupport
import Testing
@testable import LocationDaemonClient

/// An app's connection to a (fake) daemon: handshake, events, unreachable and hung daemons, close.
@Suite struct DaemonConnectionTests {
    static let request = UpdateRequest(mode: .continuous, desiredAccuracy: 10)

    @Test func theHandshakeGivesTheDaemonsAuthorizationAndSaysHelloFirst() async throws {
        let daemon = try FakeDaemon(authorization: .approximate)
        try daemon.start()
        let recorder = EventRecorder()
        let provider = DaemonServiceProvider(socketPath: daemon.socketPath)
        let connection = provider.connect(app: Caller.app, info: Caller.info, process: Caller.process, events: recorder.handler)
        defer { connection.close() }
        #expect(connection.initialAuthorization == nil, "connecting does not wait for the daemon")
        await recorder.expectInitial(.approximate)
        #expect(daemon.messages(on: 1) == [.hello(version: WireProtocol.version)], "the app's claims are not sent")

        let later = EventRecorder()
        let second = provider.connect(app: Caller.app, info: Caller.info, process: Caller.process, events: later.handler)
        defer { second.close() }
        #expect(second.initialAuthorization == .approximate, "a later connection knows it at once")
        second.send(.requestAuthorization(.whenInUse))
        #expect(await eventually { daemon.messages(on: 1).count == 2 })
        #expect(daemon.messages(on: 1).last == .request(.requestAuthorization(.whenInUse)))
        #expect(daemon.connectionCount == 1, "one socket for the whole process")
        #expect(later.events.isEmpty && recorder.events.isEmpty, "the welcome's authorization is the initial one, not a change")
    }

    /// Every connection of a process is a set of streams on one socket: ids are mapped, events go
    /// to the stream's owner, authorization to everyone, and closing one stops only its streams.
    @Test func connectionsShareOneSocketAndKeepTheirOwnStreams() async throws {
        let daemon = try FakeDaemon(authorization: .whenInUse)
        try daemon.start()
        let provider = DaemonServiceProvider(socketPath: daemon.socketPath)
        let first = EventRecorder(), second = EventRecorder()
        let a = provider.connect(app: Caller.app, info: Caller.info, process: Caller.process, events: first.handler)
        defer { a.close() }
        await first.expectInitial(.whenInUse)
        let b = provider.connect(app: Caller.app, info: Caller.info, process: Caller.process, events: second.handler)
        a.send(.startUpdates(1, Self.request))
        b.send(.startUpdates(1, Self.request))
        #expect(await eventually { daemon.messages(on: 1).count == 3 })
        #expect(daemon.messages(on: 1).dropFirst() == [
            .request(.startUpdates(1, Self.request)), .request(.startUpdates(2, Self.request)),
        ])
        try daemon.send(.event(.stream(2, .locations([.at(1)]))))
        try daemon.send(.event(.stream(1, .locations([.at(2)]))))
        try daemon.send(.event(.authorizationChanged(.approximate)))
        #expect(await eventually { first.events.count == 2 && second.events.count == 2 })
        #expect(first.events == [.stream(1, .locations([.at(2)])), .authorizationChanged(.approximate)])
        #expect(second.events == [.stream(1, .locations([.at(1)])), .authorizationChanged(.approximate)])

        b.close()
        #expect(await eventually { daemon.messages(on: 1).count == 4 })
        #expect(daemon.messages(on: 1).last == .request(.stopUpdates(2)))
        try daemon.send(.event(.stream(2, .locations([.at(3)]))))
        try daemon.send(.event(.stream(1, .locations([.at(4)]))))
        #expect(await eventually { first.events.count == 3 })
        #expect(second.events.count == 2, "nothing after close")
        #expect(daemon.connectionCount == 1 && !daemon.isClosed(1))
    }

    @Test func eventsAndBinaryLocationsArriveInOrder() async throws {
        let daemon = try FakeDaemon(authorization: .whenInUse)
        try daemon.start()
        let recorder = EventRecorder()
        let connection = DaemonServiceProvider(socketPath: daemon.socketPath)
            .connect(app: Caller.app, info: Caller.info, process: Caller.process, events: recorder.handler)
        defer { connection.close() }
        await recorder.expectInitial(.whenInUse)
        connection.send(.startUpdates(1, Self.request))
        #expect(await eventually { daemon.messages(on: 1).contains(.request(.startUpdates(1, Self.request))) })

        var expected: [ServiceEvent] = []
        for second in 1...50 {
            expected.append(.stream(1, .locations([.at(Double(second) * 2), .at(Double(second) * 2 + 1)])))
            if second % 10 == 0 { expected.append(.stream(1, .stationary(second % 20 == 0))) }
        }
        expected += [
            .stream(1, .paused), .authorizationChanged(.approximate), .stream(1, .failed(.locationUnknown)),
            .authorizationRequestInProgress(true), .stream(1, .sourceFinished),
        ]
        for event in expected { try daemon.send(.event(event)) }
        #expect(await eventually { recorder.events.count == expected.count })
        #expect(recorder.events == expected)
        #expect(!recorder.overlapped)
    }

    @Test func anUnreachableDaemonMeansNotDeterminedAtOnceAndTheConnectionCatchesUpLater() async throws {
        let daemon = try FakeDaemon(authorization: .whenInUse)
        // A handshake timeout far above the bounds below: a provider that waited for it would fail
        // them, and a test process busy with every other suite still meets them.
        let provider = DaemonServiceProvider(socketPath: daemon.socketPath, handshakeTimeout: 5)
        let recorder = EventRecorder()
        let started = Date()
        let connection = provider.connect(app: Caller.app, info: Caller.info, process: Caller.process, events: recorder.handler)
        defer { connection.close() }
        #expect(connection.initialAuthorization == nil)
        await recorder.expectInitial(.notDetermined)
        let settled = try #require(recorder.firstDelivery).timeIntervalSince(started)
        #expect(settled < 2, "no daemon: not determined at once, not after \(settled) s")
        let asked = Date()
        #expect(provider.currentAuthorization(app: Caller.app, process: Caller.process) == .notDetermined)
        #expect(Date().timeIntervalSince(asked) < 2, "no daemon: no waiting")

        connection.send(.requestAuthorization(.whenInUse))
        connection.send(.startUpdates(1, Self.request))
        try daemon.start()
        #expect(await eventually { daemon.messages(on: 1).count == 3 })
        #expect(daemon.messages(on: 1) == [
            .hello(version: WireProtocol.version), .request(.requestAuthorization(.whenInUse)),
            .request(.startUpdates(1, Self.request)),
        ], "what the app asked while the daemon was away reaches it, in order")
        #expect(await eventually { recorder.authorizationChanges == [.whenInUse] }, "a change from the not determined start")
    }

    @Test func aDaemonThatNeverAnswersLeavesTheAppNotDeterminedAfterTheHandshakeTimeout() async throws {
        let daemon = try FakeDaemon(authorization: .whenInUse, greeting: .silence)
        try daemon.start()
        // The bounds below sit far from the timeout, so a test process busy with every other suite meets them.
        let provider = DaemonServiceProvider(socketPath: daemon.socketPath, handshakeTimeout: 2)
        let recorder = EventRecorder()
        let started = Date()
        let connection = provider.connect(app: Caller.app, info: Caller.info, process: Caller.process, events: recorder.handler)
        defer { connection.close() }
        #expect(Date().timeIntervalSince(started) < 1, "connecting never waits")
        #expect(connection.initialAuthorization == nil)
        await recorder.expectInitial(.notDetermined)
        // Timed where it was delivered (the link's thread), not when this test next ran.
        let settled = try #require(recorder.firstDelivery).timeIntervalSince(started)
        #expect(settled >= 1.95 && settled < 5, "settled after \(settled) s")
        #expect(provider.currentAuthorization(app: Caller.app, process: Caller.process) == .notDetermined)
    }

    @Test func aRefusingDaemonMeansNotDeterminedAndNoEvents() async throws {
        let daemon = try FakeDaemon(authorization: .whenInUse, greeting: .refuse("unsupported protocol version"))
        try daemon.start()
        let recorder = EventRecorder()
        let connection = DaemonServiceProvider(socketPath: daemon.socketPath)
            .connect(app: Caller.app, info: Caller.info, process: Caller.process, events: recorder.handler)
        defer { connection.close() }
        #expect(connection.initialAuthorization == nil)
        await recorder.expectInitial(.notDetermined)
        // It keeps trying (the daemon may be upgraded): a second connection comes within the backoff.
        #expect(await eventually { daemon.connectionCount >= 2 })
        #expect(recorder.events.isEmpty)
    }

    @Test func closeStopsEverythingAndIsSafeTwice() async throws {
        let daemon = try FakeDaemon(authorization: .whenInUse)
        try daemon.start()
        let recorder = EventRecorder()
        let connection = DaemonServiceProvider(socketPath: daemon.socketPath)
            .connect(app: Caller.app, info: Caller.info, process: Caller.process, events: recorder.handler)
        await recorder.expectInitial(.whenInUse)
        connection.send(.startUpdates(1, Self.request))
        #expect(await eventually { daemon.messages(on: 1).count == 2 })
        connection.close()
        connection.close()
        #expect(await eventually { daemon.isClosed(1) }, "the socket is closed")
        connection.send(.startUpdates(2, Self.request))

        // Restarted daemon: no reconnection (the longest backoff is 1 s).
        daemon.stop()
        try daemon.start()
        #expect(await !eventually(timeout: .seconds(1.5)) { daemon.connectionCount > 1 })
        #expect(recorder.events.isEmpty)
        #expect(daemon.messages(on: 1).count == 2, "nothing sent after close")
    }

    @Test func closeWhileTheDaemonIsAwayStopsTheRetries() async throws {
        let daemon = try FakeDaemon(authorization: .whenInUse)
        let recorder = EventRecorder()
        let connection = DaemonServiceProvider(socketPath: daemon.socketPath)
            .connect(app: Caller.app, info: Caller.info, process: Caller.process, events: recorder.handler)
        // The first attempt has failed (the daemon is away) and a retry is scheduled.
        await recorder.expectInitial(.notDetermined)
        connection.close()
        try daemon.start()
        #expect(await !eventually(timeout: .seconds(1.5)) { daemon.connectionCount > 0 })
    }

    @Test func currentAuthorizationUsesALiveConnectionElseAsksOnce() async throws {
        let daemon = try FakeDaemon(authorization: .approximate)
        try daemon.start()
        let provider = DaemonServiceProvider(socketPath: daemon.socketPath)
        #expect(provider.currentAuthorization(app: Caller.app, process: Caller.process) == .approximate)
        #expect(daemon.connectionCount == 1)
        #expect(await eventually { daemon.isClosed(1) }, "the one-shot connection is closed")

        let connection = provider.connect(app: Caller.app, info: Caller.info, process: Caller.process) { _ in }
        defer { connection.close() }
        #expect(await eventually { daemon.connectionCount == 2 && daemon.messages(on: 2).count == 1 })
        try daemon.send(.event(.authorizationChanged(.denied)))
        #expect(await eventually { provider.currentAuthorization(app: Caller.app, process: Caller.process) == .denied })
        #expect(daemon.connectionCount == 2, "answered from the live connection")
    }

    @Test(arguments: [
        FakeGarbage.hostileLength, FakeGarbage.brokenJSON, FakeGarbage.truncatedLocations, FakeGarbage.unknownKind,
    ])
    func garbageFromTheDaemonDropsTheConnectionNotTheApp(_ garbage: FakeGarbage) async throws {
        let daemon = try FakeDaemon(authorization: .whenInUse)
        try daemon.start()
        let recorder = EventRecorder()
        let connection = DaemonServiceProvider(socketPath: daemon.socketPath)
            .connect(app: Caller.app, info: Caller.info, process: Caller.process, events: recorder.handler)
        defer { connection.close() }
        await recorder.expectInitial(.whenInUse)
        connection.send(.startUpdates(1, Self.request))
        #expect(await eventually { daemon.messages(on: 1).count == 2 })
        try daemon.sendRaw(garbage.bytes)
        #expect(await eventually { daemon.isClosed(1) }, "the client hangs up on a confused daemon")
        // …and comes back, with its stream, on a fresh connection.
        #expect(await eventually { daemon.messages(on: 2).contains(.request(.startUpdates(1, Self.request))) })
        try daemon.send(.event(.stream(1, .locations([.at(1)]))))
        #expect(await eventually { recorder.events == [.stream(1, .locations([.at(1)]))] })
    }
}

/// Bytes no daemon should send.
enum FakeGarbage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case hostileLength, brokenJSON, truncatedLocations, unknownKind

    var testDescription: String { rawValue }

    var bytes: ByteBuffer {
        var buffer = ByteBuffer()
        switch self {
        case .hostileLength:
            buffer.writeInteger(UInt32.max)
            buffer.writeInteger(UInt8(1))
        case .brokenJSON:
            buffer.writeInteger(UInt32(6))
            buffer.writeInteger(WireCodec.Kind.json.rawValue)
            buffer.writeString("{oops")
        case .truncatedLocations:
            buffer.writeInteger(UInt32(1 + 4 + 2 + 10))
            buffer.writeInteger(WireCodec.Kind.locations.rawValue)
            buffer.writeInteger(UInt32(1))
            buffer.writeInteger(UInt16(1))
            buffer.writeBytes([UInt8](repeating: 0, count: 10))
        case .unknownKind:
            buffer.writeInteger(UInt32(1))
            buffer.writeInteger(UInt8(99))
        }
        return buffer
    }
}
