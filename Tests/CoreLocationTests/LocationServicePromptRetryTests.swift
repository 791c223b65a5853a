import CoreLocationTesting
import Foundation
import LocationAccess
import LocationCore
import LocationEngine
import LocationPolicy
import LocationProtocol
import LocationSources
import Testing

/// `LocationService.retryPendingPrompts()`: a request nobody could answer is asked again when someone
/// can (for `locationd`, when a prompt agent registers).
@Suite struct LocationServicePromptRetryTests {
    static let app = AppIdentity(id: "com.example.waiting", displayName: "Waiting", executablePath: "/opt/waiting/waiting")
    static let info = AppInfo(bundleIdentifier: app.id, whenInUseUsageDescription: "Shows where you are.")

    /// A service on a virtual loop whose prompter answers whatever `prompter.answer` says at the time.
    struct World {
        let loop = VirtualLoop()
        let store = MemoryAuthorizationStore()
        let prompter = ScriptedPrompter(answer: nil)
        let service: LocationService
        let events = Locked<[ServiceEvent]>([])

        init() {
            let engine = LocationEngine(loop: loop, sources: [FixedSource(latitude: 1, longitude: 2)])
            service = LocationService(engine: engine, store: store, prompter: prompter, isAlive: { _ in true })
            loop.run()
        }

        func connect(pid: Int32 = 10) -> any ClientConnection {
            let events = events
            let connection = service.connect(
                app: LocationServicePromptRetryTests.app, info: LocationServicePromptRetryTests.info,
                process: ProcessStamp(pid: pid, startTime: 1)) { event in events.withLock { $0.append(event) } }
            loop.run()
            return connection
        }

        func status() throws -> AuthorizationStatus? {
            try store.read().apps[LocationServicePromptRetryTests.app.id]?.status
        }
    }

    @Test func aRequestNobodyAnsweredIsAskedAgainAndItsAnswerStored() throws {
        let world = World()
        let connection = world.connect()
        connection.send(.requestAuthorization(.whenInUse))
        world.loop.run()
        #expect(world.prompter.requests.count == 1)
        #expect(world.events.withLock { $0 }.contains(.authorizationRequestInProgress(true)))
        #expect(try world.status() == nil)

        world.prompter.answer = .allowWhileUsing(precise: true)
        world.service.retryPendingPrompts()
        world.loop.run()
        #expect(world.prompter.requests.count == 2)
        #expect(world.prompter.requests.last?.app == Self.app)
        #expect(try world.status() == .authorizedWhenInUse)
        #expect(world.events.withLock { $0 }.last == .authorizationChanged(
            EffectiveAuthorization(status: .authorizedWhenInUse, accuracy: .fullAccuracy, servicesEnabled: true)))
    }

    @Test func retryingWithNothingPendingAsksNobody() {
        let world = World()
        _ = world.connect()
        world.service.retryPendingPrompts()
        world.loop.run()
        #expect(world.prompter.requests.isEmpty)
    }

    @Test func aRequestSettledMeanwhileIsNotAskedAgain() throws {
        let world = World()
        let connection = world.connect()
        connection.send(.requestAuthorization(.whenInUse))
        world.loop.run()
        try world.store.update { database in
            database.apps[Self.app.id] = AppRecord(
                status: .denied, displayName: "Waiting", executablePath: Self.app.executablePath, updated: Date())
        }
        world.service.refreshAuthorization()
        world.loop.run()
        #expect(world.events.withLock { $0 }.last == .authorizationRequestInProgress(false))

        world.prompter.answer = .allowWhileUsing(precise: true)
        world.service.retryPendingPrompts()
        world.loop.run()
        #expect(world.prompter.requests.count == 1)
        #expect(try world.status() == .denied)
    }

    @Test func anUnansweredRequestEndsWithItsAppsLastConnection() throws {
        let world = World()
        let first = world.connect(pid: 10)
        first.send(.requestAuthorization(.whenInUse))
        world.loop.run()
        first.close()
        world.loop.run()
        world.prompter.answer = .allowWhileUsing(precise: true)
        world.service.retryPendingPrompts()
        world.loop.run()
        #expect(world.prompter.requests.count == 1, "nobody waits any more: not asked again")

        // The app's next launch asks afresh instead of finding a request "in progress".
        world.events.withLock { $0.removeAll() }
        let second = world.connect(pid: 11)
        #expect(!world.events.withLock { $0 }.contains(.authorizationRequestInProgress(true)))
        second.send(.requestAuthorization(.whenInUse))
        world.loop.run()
        #expect(world.prompter.requests.count == 2)
        #expect(try world.status() == .authorizedWhenInUse)
    }

    @Test func aRetryGoesToAnotherRunningInstanceWhenTheOneThatAskedIsGone() throws {
        let world = World()
        let asker = world.connect(pid: 10)
        let other = world.connect(pid: 11)
        asker.send(.requestAuthorization(.whenInUse))
        world.loop.run()
        asker.close()
        world.loop.run()
        world.prompter.answer = .allowOnce(precise: true)
        world.service.retryPendingPrompts()
        world.loop.run()
        #expect(try world.store.read().apps[Self.app.id]?.allowOnce == ProcessStamp(pid: 11, startTime: 1))
        withExtendedLifetime(other) {}
    }

    /// Holds each prompt's completion until the test answers it, like an agent's prompt on screen.
    final class HeldPrompter: AuthorizationPrompter, @unchecked Sendable {
        let completions = Locked<[@Sendable (PromptAnswer?) -> Void]>([])
        func prompt(_ request: PromptRequest, completion: @escaping @Sendable (PromptAnswer?) -> Void) {
            completions.withLock { $0.append(completion) }
        }
    }

    @Test func aLateAnswerDoesNotOverwriteASettingMadeMeanwhile() throws {
        let loop = VirtualLoop()
        let store = MemoryAuthorizationStore()
        let prompter = HeldPrompter()
        let engine = LocationEngine(loop: loop, sources: [FixedSource(latitude: 1, longitude: 2)])
        let service = LocationService(engine: engine, store: store, prompter: prompter, isAlive: { _ in true })
        let connection = service.connect(
            app: Self.app, info: Self.info, process: ProcessStamp(pid: 10, startTime: 1)) { _ in }
        connection.send(.requestAuthorization(.whenInUse))
        loop.run()
        let answer = try #require(prompter.completions.withLock { $0.first })

        try store.update { try SettingsChange.grant(app: Self.app.id, always: false, approximate: true).apply(to: &$0, now: Date()) }
        service.refreshAuthorization()
        loop.run()
        answer(.dontAllow)
        loop.run()
        let record = try #require(try store.read().apps[Self.app.id])
        #expect(record.status == .authorizedWhenInUse, "the grant made in the settings stands")
        #expect(record.accuracy == .reducedAccuracy)
    }

    @Test func anAnswerWithNothingSettledMeanwhileIsStored() throws {
        let loop = VirtualLoop()
        let store = MemoryAuthorizationStore()
        let prompter = HeldPrompter()
        let engine = LocationEngine(loop: loop, sources: [FixedSource(latitude: 1, longitude: 2)])
        let service = LocationService(engine: engine, store: store, prompter: prompter, isAlive: { _ in true })
        let connection = service.connect(
            app: Self.app, info: Self.info, process: ProcessStamp(pid: 10, startTime: 1)) { _ in }
        connection.send(.requestAuthorization(.whenInUse))
        loop.run()
        let answer = try #require(prompter.completions.withLock { $0.first })
        answer(.dontAllow)
        loop.run()
        #expect(try store.read().apps[Self.app.id]?.status == .denied)
    }
}
