import Foundation
import LocationCore
import LocationProtocol
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemonClient

/// The link's timing comes from its injected loop: on a `VirtualLoop`, the handshake timeout and
/// the reconnection delay pass only when the test moves time, however long the sockets take.
@Suite struct DaemonLinkClockTests {
    static let app = AppIdentity(id: "com.example.clock", displayName: "Clock", executablePath: "/clock")

    @Test func aSilentDaemonIsWaitedForExactlyTheHandshakeTimeoutOfLoopTime() async throws {
        let loop = VirtualLoop()
        let daemon = try FakeDaemon(authorization: .whenInUse, greeting: .silence)
        try daemon.start()
        let provider = DaemonServiceProvider(socketPath: daemon.socketPath, handshakeTimeout: 1, loop: loop)
        let recorder = EventRecorder()
        let connection = provider.connect(app: Self.app, info: AppInfo(), process: ProcessStamp(pid: 1, startTime: 1),
                                          events: recorder.handler)
        defer {
            connection.close()
            loop.run()
        }
        loop.run()
        // The socket connects in real time; the daemon says nothing.
        #expect(await eventually { loop.run(); return daemon.messages(on: 1) == [.hello(version: WireProtocol.version)] })
        loop.advance(by: 0.999)
        #expect(recorder.events.isEmpty, "still within the handshake timeout")
        loop.advance(by: 0.001)
        #expect(recorder.events == [.authorizationChanged(.notDetermined)])
    }

    @Test func aReconnectionWaitsForTheBackoffDelayOfLoopTime() async throws {
        let loop = VirtualLoop()
        let daemon = try FakeDaemon(authorization: .whenInUse)
        let provider = DaemonServiceProvider(socketPath: daemon.socketPath, loop: loop)
        let recorder = EventRecorder()
        let connection = provider.connect(app: Self.app, info: AppInfo(), process: ProcessStamp(pid: 1, startTime: 1),
                                          events: recorder.handler)
        defer {
            connection.close()
            loop.run()
        }
        loop.run()
        // The first attempt fails (no daemon): the app starts as not determined.
        #expect(await eventually { loop.run(); return !recorder.events.isEmpty })
        #expect(recorder.events == [.authorizationChanged(.notDetermined)])

        try daemon.start()
        // Real time passes, loop time does not: no new attempt.
        #expect(await !eventually(timeout: .milliseconds(300)) { loop.run(); return daemon.connectionCount > 0 })
        loop.advance(by: 0.099)
        #expect(await !eventually(timeout: .milliseconds(100)) { loop.run(); return daemon.connectionCount > 0 })
        loop.advance(by: 0.001)
        #expect(await eventually { loop.run(); return daemon.connectionCount == 1 })
        #expect(await eventually { loop.run(); return recorder.authorizationChanges == [.notDetermined, .whenInUse] })
    }
}
