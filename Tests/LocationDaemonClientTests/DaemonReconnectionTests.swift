import Foundation
import LocationCore
import LocationProtocol
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemonClient

/// The daemon dies (`kill -9`: connections dropped, socket file left) and comes back: the app's
/// connection resumes on its own, re-sends what is active, and shows no duplicate or phantom event.
@Suite struct DaemonReconnectionTests {
    static let hello = ClientMessage.hello(version: WireProtocol.version)
    static let continuous = UpdateRequest(mode: .continuous, desiredAccuracy: 10)
    static let single = UpdateRequest(mode: .single, desiredAccuracy: 100)

    @Test func streamsResumeWithoutDuplicateFixesOrRepeatedAuthorization() async throws {
        let daemon = try FakeDaemon(authorization: .whenInUse)
        try daemon.start()
        let recorder = EventRecorder()
        let connection = DaemonServiceProvider(socketPath: daemon.socketPath)
            .connect(app: Caller.app, info: Caller.info, process: Caller.process, events: recorder.handler)
        defer { connection.close() }
        await recorder.expectInitial(daemon.authorization)
        connection.send(.startUpdates(1, Self.continuous))
        connection.send(.startUpdates(2, Self.single))
        #expect(await eventually { daemon.messages(on: 1).count == 3 })
        try daemon.send(.event(.stream(1, .locations([.at(1), .at(2)]))))
        #expect(await eventually { recorder.fixes.count == 2 })

        daemon.stop()
        // While it is away, the app changes its request: the new daemon gets the latest one.
        var changed = Self.continuous
        changed.distanceFilter = 25
        connection.send(.changeUpdates(1, changed))
        let restarted = Date()
        try daemon.start()
        #expect(await eventually { daemon.messages(on: 2).count == 3 })
        let resumed = try #require(daemon.arrival(of: 3, on: 2)).timeIntervalSince(restarted)
        #expect(resumed < 3, "resumed within a few seconds (\(resumed) s)")
        #expect(daemon.messages(on: 2) == [
            Self.hello, .request(.startUpdates(1, changed)), .request(.startUpdates(2, Self.single)),
        ], "every active stream, the unanswered single request included")

        // The new daemon replays its cached last fix, then goes on; the single request is answered.
        try daemon.send(.event(.stream(1, .locations([.at(2)]))))
        try daemon.send(.event(.stream(1, .locations([.at(2), .at(3)]))))
        try daemon.send(.event(.stream(2, .locations([.at(3)]))))
        try daemon.send(.event(.stream(2, .completed)))
        #expect(await eventually { recorder.events.count == 4 })
        #expect(recorder.events == [
            .stream(1, .locations([.at(1), .at(2)])), .stream(1, .locations([.at(3)])), .stream(2, .locations([.at(3)])), .stream(2, .completed),
        ])
        #expect(recorder.authorizationChanges.isEmpty, "same authorization after the restart: no callback")

        // Another restart: the answered single request is not asked again.
        daemon.stop()
        try daemon.start()
        #expect(await eventually { daemon.messages(on: 3).count == 2 })
        #expect(daemon.messages(on: 3) == [Self.hello, .request(.startUpdates(1, changed))])
        #expect(recorder.events.count == 4, "nothing synthetic while disconnected")
    }

    @Test func aChangedAuthorizationAfterARestartIsReportedExactlyOnce() async throws {
        let daemon = try FakeDaemon(authorization: .whenInUse)
        try daemon.start()
        let recorder = EventRecorder()
        let connection = DaemonServiceProvider(socketPath: daemon.socketPath)
            .connect(app: Caller.app, info: Caller.info, process: Caller.process, events: recorder.handler)
        defer { connection.close() }
        await recorder.expectInitial(daemon.authorization)
        daemon.stop()
        daemon.authorization = .denied
        try daemon.start()
        #expect(await eventually { daemon.connectionCount == 2 && !daemon.messages(on: 2).isEmpty })
        // The new daemon also announces it as an event: still one callback.
        #expect(await eventually { recorder.authorizationChanges == [.denied] })
        try daemon.send(.event(.authorizationChanged(.denied)))
        daemon.stop()
        try daemon.start()
        #expect(await eventually { daemon.connectionCount == 3 && !daemon.messages(on: 3).isEmpty })
        try daemon.send(.event(.stream(7, .locations([.at(1)]))))
        try daemon.send(.event(.authorizationChanged(.approximate)))
        #expect(await eventually { recorder.events.count == 2 })
        #expect(recorder.events == [.authorizationChanged(.denied), .authorizationChanged(.approximate)])
    }

    @Test func aPendingAuthorizationRequestIsAskedAgainUntilAnswered() async throws {
        let daemon = try FakeDaemon(authorization: .notDetermined)
        try daemon.start()
        let recorder = EventRecorder()
        let connection = DaemonServiceProvider(socketPath: daemon.socketPath)
            .connect(app: Caller.app, info: Caller.info, process: Caller.process, events: recorder.handler)
        defer { connection.close() }
        await recorder.expectInitial(daemon.authorization)
        connection.send(.requestAuthorization(.whenInUse))
        #expect(await eventually { daemon.messages(on: 1).count == 2 })
        try daemon.send(.event(.authorizationRequestInProgress(true)))
        #expect(await eventually { recorder.events == [.authorizationRequestInProgress(true)] })

        daemon.stop()
        try daemon.start()
        #expect(await eventually { daemon.messages(on: 2) == [Self.hello, .request(.requestAuthorization(.whenInUse))] })
        // The restarted daemon prompts again: the app was told already.
        try daemon.send(.event(.authorizationRequestInProgress(true)))
        try daemon.send(.event(.authorizationChanged(.whenInUse)))
        try daemon.send(.event(.authorizationRequestInProgress(false)))
        #expect(await eventually { recorder.events.count == 3 })
        #expect(recorder.events == [
            .authorizationRequestInProgress(true), .authorizationChanged(.whenInUse), .authorizationRequestInProgress(false),
        ])

        daemon.stop()
        daemon.authorization = .whenInUse
        try daemon.start()
        #expect(await eventually { daemon.connectionCount == 3 && !daemon.messages(on: 3).isEmpty })
        #expect(await !eventually(timeout: .seconds(0.3)) { daemon.messages(on: 3).count > 1 }, "answered: not asked again")
    }

    @Test func stoppedStreamsAreForgotten() async throws {
        let daemon = try FakeDaemon(authorization: .whenInUse)
        try daemon.start()
        let recorder = EventRecorder()
        let connection = DaemonServiceProvider(socketPath: daemon.socketPath)
            .connect(app: Caller.app, info: Caller.info, process: Caller.process, events: recorder.handler)
        defer { connection.close() }
        await recorder.expectInitial(daemon.authorization)
        connection.send(.startUpdates(1, Self.continuous))
        connection.send(.startUpdates(2, Self.continuous))
        connection.send(.stopUpdates(1))
        #expect(await eventually { daemon.messages(on: 1).count == 4 })
        // A fix for the stopped stream that was already on its way is not delivered.
        try daemon.send(.event(.stream(1, .locations([.at(1)]))))
        try daemon.send(.event(.stream(2, .locations([.at(1)]))))
        #expect(await eventually { recorder.events == [.stream(2, .locations([.at(1)]))] })
        daemon.stop()
        try daemon.start()
        #expect(await eventually { daemon.messages(on: 2) == [Self.hello, .request(.startUpdates(2, Self.continuous))] })
    }
}
