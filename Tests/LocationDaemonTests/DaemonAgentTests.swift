import Foundation
import LocationAccess
import LocationCore
import LocationPolicy
import LocationProtocol
import LocationSources
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemon

/// `locationctl agent`: the registered connection answers its user's prompts.
@Suite(.timeLimit(.minutes(2)))
struct DaemonAgentTests {
    /// A daemon whose clients appear as `com.example.weather`, with a usage description to ask with.
    static func weatherDaemon() throws -> DaemonFixture {
        let fixture = try DaemonFixture(sources: [], fakeProc: true)
        let weather = try makeApp(in: fixture.directory, name: "weather", infoPlist: appPlist("com.example.weather", name: "Weather"))
        try fixture.fakeProc?.present(weather)
        return fixture
    }

    static func prompt(_ client: WireClient, after count: Int = 0) async -> (id: UInt64, request: PromptRequest)? {
        _ = await eventually(timeout: .seconds(10)) { client.messages.filter(isPrompt).count > count }
        guard case let .agentPrompt(id, request)? = client.messages.filter(isPrompt).dropFirst(count).first else { return nil }
        return (id, request)
    }

    static func isPrompt(_ message: DaemonMessage) -> Bool {
        if case .agentPrompt = message { return true }
        return false
    }

    @Test func thePromptGoesToTheAgentAndItsAnswerIsStored() async throws {
        let fixture = try Self.weatherDaemon()
        let (agent, _, _) = try await fixture.welcomedClient()
        agent.send(.registerAgent)
        // Registered before the app asks, so the request goes to the agent rather than waiting.
        #expect(await eventually(timeout: .seconds(5)) { fixture.daemon.hasAgent(forUser: getuid()) })
        let (app, _, _) = try await fixture.welcomedClient()
        app.send(.request(.requestAuthorization(.whenInUse)))

        let prompt = try #require(await Self.prompt(agent))
        #expect(prompt.request.app.id == "com.example.weather")
        #expect(prompt.request.app.displayName == "Weather")
        #expect(prompt.request.usageDescription == "Shows where you are.")
        #expect(prompt.request.kind == .initial)
        #expect(await app.first { $0 == .event(.authorizationRequestInProgress(true)) } != nil)

        agent.send(.agentAnswer(id: prompt.id, .allowWhileUsing(precise: false)))
        let granted = EffectiveAuthorization(status: .authorizedWhenInUse, accuracy: .reducedAccuracy, servicesEnabled: true)
        #expect(await app.first { $0 == .event(.authorizationChanged(granted)) } != nil)
        let record = try #require(try fixture.store.read().apps["com.example.weather"])
        #expect(record.status == .authorizedWhenInUse)
        #expect(record.accuracy == .reducedAccuracy)
        #expect(record.executablePath.hasSuffix("/apps/weather/weather"))
    }

    @Test func aRequestPendingBeforeTheAgentStartedIsAskedWhenItRegisters() async throws {
        let fixture = try Self.weatherDaemon()
        let (app, _, _) = try await fixture.welcomedClient()
        app.send(.request(.requestAuthorization(.whenInUse)))
        #expect(await app.first { $0 == .event(.authorizationRequestInProgress(true)) } != nil)

        let (agent, _, _) = try await fixture.welcomedClient()
        agent.send(.registerAgent)
        let prompt = try #require(await Self.prompt(agent))
        #expect(prompt.request.app.id == "com.example.weather")
        agent.send(.agentAnswer(id: prompt.id, .dontAllow))
        #expect(await app.first { $0 == .event(.authorizationRequestInProgress(false)) } != nil)
        #expect(try fixture.store.read().apps["com.example.weather"]?.status == .denied)
    }

    @Test func unknownAnswersAreIgnoredAndAnAgentThatLeavesHandsItsPromptToTheNext() async throws {
        let fixture = try Self.weatherDaemon()
        let (first, _, _) = try await fixture.welcomedClient()
        first.send(.registerAgent)
        #expect(await eventually(timeout: .seconds(5)) { fixture.daemon.hasAgent(forUser: getuid()) })
        let (app, _, _) = try await fixture.welcomedClient()
        app.send(.request(.requestAuthorization(.whenInUse)))
        let prompt = try #require(await Self.prompt(first))

        first.send(.agentAnswer(id: prompt.id + 1000, .allowWhileUsing(precise: true)))
        first.send(.listApps)
        #expect(await first.first { if case .apps = $0 { return true } else { return false } } != nil, "still connected")
        #expect(try fixture.store.read().apps["com.example.weather"] == nil)

        first.close()
        #expect(await eventually(timeout: .seconds(5)) { !fixture.daemon.hasAgent(forUser: getuid()) })
        let (second, _, _) = try await fixture.welcomedClient()
        second.send(.registerAgent)
        let again = try #require(await Self.prompt(second))
        #expect(again.request.app.id == "com.example.weather")
        second.send(.agentAnswer(id: again.id, .allowOnce(precise: true)))
        #expect(await eventually(timeout: .seconds(5)) { (try? fixture.store.read().apps["com.example.weather"]?.allowOnce) != nil })
    }

    /// A newer agent replaces the older one and inherits its open prompts; the older one is told.
    @Test func aNewerAgentTakesOverOpenPrompts() async throws {
        let fixture = try Self.weatherDaemon()
        let (old, _, _) = try await fixture.welcomedClient()
        old.send(.registerAgent)
        #expect(await eventually(timeout: .seconds(5)) { fixture.daemon.hasAgent(forUser: getuid()) })
        let (app, _, _) = try await fixture.welcomedClient()
        app.send(.request(.requestAuthorization(.whenInUse)))
        let prompt = try #require(await Self.prompt(old))

        let (new, _, _) = try await fixture.welcomedClient()
        new.send(.registerAgent)
        let moved = try #require(await Self.prompt(new))
        #expect(moved.id == prompt.id)
        #expect(await old.first { $0 == .agentPromptWithdrawn(id: prompt.id) } != nil)

        old.send(.agentAnswer(id: prompt.id, .dontAllow))
        new.send(.agentAnswer(id: prompt.id, .allowWhileUsing(precise: true)))
        #expect(await eventually(timeout: .seconds(5)) { (try? fixture.store.read().apps["com.example.weather"]?.status) == .authorizedWhenInUse })
    }
}
