import CoreLocation
import Foundation
import LocationAccess
import LocationBootstrap
import LocationCore
import LocationEngine
import LocationPolicy
import LocationProtocol
import LocationSources
import TestSupport
import Testing

/// Callbacks arrive on the run loop of the thread that created the manager (Apple's rule),
/// here with the real-time engine, a real thread and its running `RunLoop`.
@Suite struct CLLocationManagerThreadingTests {
    @Test(.timeLimit(.minutes(2)))
    func callbacksArriveOnTheCreatingThreadsRunLoop() async throws {
        let app = AppIdentity(id: "com.example.threads", displayName: "Threads", executablePath: "/x")
        let store = MemoryAuthorizationStore(AuthorizationDatabase(apps: [
            app.id: AppRecord(status: .authorizedWhenInUse, displayName: "Threads", executablePath: "/x", updated: Date()),
        ]))
        let engine = LocationEngine(loop: RealtimeLoop(), sources: [try SourceSpec("fixed:45.0,7.0").makeSource()])
        let service = LocationService(engine: engine, store: store, prompter: nil, isAlive: { _ in true })
        let system = LocationSystem(
            provider: service, app: app, info: AppInfo(whenInUseUsageDescription: "x"),
            process: ProcessStamp(pid: 1, startTime: 1))

        let result = Locked<(thread: ObjectIdentifier?, delegate: RecordingDelegate?)>((nil, nil))
        let done = Flag()
        let thread = Thread {
            LocationSystem.$override.withValue(system) {
                let delegate = RecordingDelegate()
                let manager = CLLocationManager()
                manager.delegate = delegate
                manager.startUpdatingLocation()
                result.withLock { $0 = (ObjectIdentifier(Thread.current), delegate) }
                let deadline = Date().addingTimeInterval(20)
                while delegate.locations.count < 3, Date() < deadline {
                    _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.05))
                }
                manager.stopUpdatingLocation()
                withExtendedLifetime(manager) {}
            }
            done.set()
        }
        thread.start()
        try #require(await eventually(timeout: .seconds(30)) { done.isSet }, "the manager's thread ended")

        let (creator, delegate) = result.withLock { $0 }
        let recorded = try #require(delegate)
        #expect(recorded.locations.count >= 3)
        #expect(recorded.events.first == .authorization(.authorizedWhenInUse, .fullAccuracy))
        #expect(recorded.threads == [creator!], "every callback on the creating thread")
    }
}
