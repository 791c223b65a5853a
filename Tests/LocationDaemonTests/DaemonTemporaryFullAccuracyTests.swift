import CoreLocation
import Foundation
import LocationBootstrap
import LocationCore
import LocationDaemonClient
import LocationPolicy
import LocationProtocol
import LocationSources
import LocationWire
import TestSupport
import Testing
@testable import LocationDaemon

#if canImport(Glibc)
import Glibc
#endif

/// `requestTemporaryFullAccuracyAuthorization` through `locationd`: the same rules as in-process, the
/// purpose string shown by the agent and answered by the policy, and a grant that ends with its process.
@Suite(.timeLimit(.minutes(2)))
struct DaemonTemporaryFullAccuracyTests {
    static let purpose = "Turn-by-turn directions need your exact position."
    static let reduced = EffectiveAuthorization(status: .authorizedWhenInUse, accuracy: .reducedAccuracy, servicesEnabled: true)
    static let full = EffectiveAuthorization(status: .authorizedWhenInUse, accuracy: .fullAccuracy, servicesEnabled: true)

    /// A daemon whose clients appear as `com.example.maps`, with a purpose string for "Navigation",
    /// authorized When In Use with `accuracy`.
    static func mapsDaemon(
        accuracy: AccuracyAuthorization = .reducedAccuracy, policy: String? = nil, sources: [any LocationSource] = []
    ) throws -> DaemonFixture {
        let fixture = try DaemonFixture(sources: sources, fakeProc: true) { configuration in
            if let policy { configuration.promptEnvironment["CORELOCATION_PROMPT_POLICY"] = policy }
        }
        var plist = appPlist("com.example.maps", name: "Maps")
        plist["NSLocationTemporaryUsageDescriptionDictionary"] = ["Navigation": purpose]
        let maps = try makeApp(in: fixture.directory, name: "maps", infoPlist: plist)
        try fixture.fakeProc?.present(maps)
        try fixture.store.update { database in
            database.apps["com.example.maps"] = AppRecord(
                status: .authorizedWhenInUse, accuracy: accuracy, displayName: "Maps",
                executablePath: maps.path, updated: Date())
        }
        return fixture
    }

    static func registeredAgent(_ fixture: DaemonFixture) async throws -> WireClient {
        let (agent, _, _) = try await fixture.welcomedClient()
        agent.send(.registerAgent)
        #expect(await eventually(timeout: .seconds(5)) { fixture.daemon.hasAgent(forUser: getuid()) })
        return agent
    }

    static func outcome(_ client: WireClient, _ id: AccuracyRequestID) async -> TemporaryFullAccuracyOutcome? {
        let received = await client.first {
            if case .event(.temporaryFullAccuracy(id, _)) = $0 { true } else { false }
        }
        guard case .event(.temporaryFullAccuracy(_, let outcome))? = received?.message else { return nil }
        return outcome
    }

    @Test func theAgentShowsThePurposeStringAndItsAllowGrantsFullAccuracyToTheProcess() async throws {
        let fixture = try Self.mapsDaemon()
        let agent = try await Self.registeredAgent(fixture)
        let (app, _, initial) = try await fixture.welcomedClient()
        #expect(initial == Self.reduced)
        app.send(.request(.requestTemporaryFullAccuracy(1, purposeKey: "Navigation")))

        let prompt = try #require(await DaemonAgentTests.prompt(agent))
        #expect(prompt.request.kind == .temporaryFullAccuracy(purposeKey: "Navigation"))
        #expect(prompt.request.usageDescription == Self.purpose)
        #expect(prompt.request.app.displayName == "Maps")
        agent.send(.agentAnswer(id: prompt.id, .allowTemporaryFullAccuracy))

        #expect(await Self.outcome(app, 1) == .prompted)
        // The change comes first, so an app that resumes on the outcome already reads full accuracy.
        let changed = app.messages.firstIndex(of: .event(.authorizationChanged(Self.full)))
        let answered = app.messages.firstIndex(of: .event(.temporaryFullAccuracy(1, .prompted)))
        #expect(changed != nil && answered != nil && changed! < answered!)
        let record = try #require(try fixture.store.read().apps["com.example.maps"])
        #expect(record.accuracy == .reducedAccuracy, "the user's setting is unchanged")
        #expect(record.temporaryFullAccuracy?.purposeKey == "Navigation")
        #expect(record.temporaryFullAccuracy?.process.pid == getpid())

        // Another connection of the same process shares the grant…
        let (again, _, authorization) = try await fixture.welcomedClient()
        #expect(authorization == Self.full)
        again.close()
        // …and a new process of the app, once the one that asked has gone, does not.
        app.close()
        try fixture.fakeProc?.startAnotherProcess()
        let (next, _, relaunched) = try await fixture.welcomedClient()
        #expect(relaunched == Self.reduced, "the grant ended with the process that asked")
        next.close()
        agent.close()
    }

    /// Every fix that reached the app on `stream`, in order.
    static func fixes(_ client: WireClient, on stream: StreamID) -> [Fix] {
        client.messages.flatMap { message -> [Fix] in
            guard case let .event(.stream(id, .locations(fixes))) = message, id == stream else { return [] }
            return fixes
        }
    }

    @Test func preciseFixesCrossTheSocketOnlyOnceGranted() async throws {
        let receiver = FixedSource(latitude: 52.52, longitude: 13.405, horizontalAccuracy: 5)
        let fixture = try Self.mapsDaemon(policy: "allow", sources: [receiver])
        let (app, _, _) = try await fixture.welcomedClient()
        app.send(.request(.startUpdates(1, UpdateRequest(mode: .continuous, desiredAccuracy: Self.kBestAccuracy))))
        #expect(await eventually(timeout: .seconds(10)) { !Self.fixes(app, on: 1).isEmpty })
        let before = Self.fixes(app, on: 1)
        #expect(before.allSatisfy { $0.horizontalAccuracy >= 1000 }, "desiredAccuracy is ignored while reduced")

        app.send(.request(.requestTemporaryFullAccuracy(8, purposeKey: "Navigation")))
        #expect(await Self.outcome(app, 8) == .prompted)
        #expect(await eventually(timeout: .seconds(10)) { Self.fixes(app, on: 1).contains { $0.horizontalAccuracy <= 5 } })
        let after = Self.fixes(app, on: 1).dropFirst(before.count)
        #expect(after.contains { abs($0.latitude - 52.52) < 1e-6 && abs($0.longitude - 13.405) < 1e-6 })
        app.close()
    }

    /// `kCLLocationAccuracyBest`, as the manager sends it.
    static let kBestAccuracy: Double = -1

    @Test func dontAllowKeepsApproximateButTheRequestWasPrompted() async throws {
        let fixture = try Self.mapsDaemon()
        let agent = try await Self.registeredAgent(fixture)
        let (app, _, _) = try await fixture.welcomedClient()
        app.send(.request(.requestTemporaryFullAccuracy(7, purposeKey: "Navigation")))
        let prompt = try #require(await DaemonAgentTests.prompt(agent))
        agent.send(.agentAnswer(id: prompt.id, .denyTemporaryFullAccuracy))
        #expect(await Self.outcome(app, 7) == .prompted)
        #expect(!app.messages.contains { if case .event(.authorizationChanged) = $0 { true } else { false } })
        #expect(try fixture.store.read().apps["com.example.maps"]?.temporaryFullAccuracy == nil)
    }

    @Test func anAnswerToAnotherQuestionGrantsNothing() async throws {
        let fixture = try Self.mapsDaemon()
        let agent = try await Self.registeredAgent(fixture)
        let (app, _, _) = try await fixture.welcomedClient()
        app.send(.request(.requestTemporaryFullAccuracy(2, purposeKey: "Navigation")))
        let prompt = try #require(await DaemonAgentTests.prompt(agent))
        agent.send(.agentAnswer(id: prompt.id, .changeToAlways))
        #expect(await Self.outcome(app, 2) == .prompted)
        let record = try #require(try fixture.store.read().apps["com.example.maps"])
        #expect(record.status == .authorizedWhenInUse && record.temporaryFullAccuracy == nil)
    }

    @Test func aMissingPurposeKeyOrFullAccuracyDeclinesWithoutAskingTheAgent() async throws {
        let fixture = try Self.mapsDaemon()
        let agent = try await Self.registeredAgent(fixture)
        let (app, _, _) = try await fixture.welcomedClient()
        app.send(.request(.requestTemporaryFullAccuracy(3, purposeKey: "Radar")))
        #expect(await Self.outcome(app, 3) == .declined)

        let precise = try Self.mapsDaemon(accuracy: .fullAccuracy)
        let preciseAgent = try await Self.registeredAgent(precise)
        let (preciseApp, _, authorization) = try await precise.welcomedClient()
        #expect(authorization == Self.full)
        preciseApp.send(.request(.requestTemporaryFullAccuracy(4, purposeKey: "Navigation")))
        #expect(await Self.outcome(preciseApp, 4) == .declined)
        #expect(!agent.messages.contains(where: DaemonAgentTests.isPrompt))
        #expect(!preciseAgent.messages.contains(where: DaemonAgentTests.isPrompt))
    }

    @Test(arguments: [("allow", true), ("allow-once", true), ("always,precise", true), ("allow,approximate", false), ("deny", false)])
    func thePromptPolicyAnswersIt(policy: String, grants: Bool) async throws {
        let fixture = try Self.mapsDaemon(policy: policy)
        let (app, _, _) = try await fixture.welcomedClient()
        app.send(.request(.requestTemporaryFullAccuracy(5, purposeKey: "Navigation")))
        #expect(await Self.outcome(app, 5) == .prompted)
        #expect((try fixture.store.read().apps["com.example.maps"]?.temporaryFullAccuracy != nil) == grants)
        #expect(app.messages.contains(.event(.authorizationChanged(Self.full))) == grants)
    }

    @Test func withNobodyToAnswerTheRequestIsDeclinedNotLeftPending() async throws {
        let fixture = try Self.mapsDaemon()
        let (app, _, _) = try await fixture.welcomedClient()
        app.send(.request(.requestTemporaryFullAccuracy(6, purposeKey: "Navigation")))
        #expect(await Self.outcome(app, 6) == .declined)
    }

    @Test func grantPreciseAndApproximateReachTheRunningAppAtOnce() async throws {
        let fixture = try Self.mapsDaemon()
        let (app, _, _) = try await fixture.welcomedClient()
        let (control, _, _) = try await fixture.welcomedClient()
        // Arrival times come from the client's reader thread, so a busy test runner does not count.
        var sent = Date()
        control.send(.settings(.grant(app: "com.example.maps", always: false, approximate: false)))
        let precise = try #require(await app.first { $0 == .event(.authorizationChanged(Self.full)) })
        #expect(precise.time.timeIntervalSince(sent) < 1, "took \(precise.time.timeIntervalSince(sent)) s")
        sent = Date()
        control.send(.settings(.grant(app: "com.example.maps", always: false, approximate: true)))
        let approximate = try #require(await app.first { $0 == .event(.authorizationChanged(Self.reduced)) })
        #expect(approximate.time.timeIntervalSince(sent) < 1, "took \(approximate.time.timeIntervalSince(sent)) s")
        control.close()
        app.close()
    }

    /// A manager of this process, talking to the daemon, made on a thread of its own that serves its
    /// run loop (where its callbacks arrive) until `body` reports a result.
    static func withManager<R: Sendable>(
        socketPath: String, _ body: @escaping @Sendable (ManagerBox, @escaping @Sendable (R) -> Void) -> Void
    ) async -> R? {
        let result = Locked<R?>(nil)
        let system = LocationSystem(
            provider: DaemonServiceProvider(socketPath: socketPath),
            app: AppIdentity(id: "unused", displayName: "unused", executablePath: "/unused"),
            info: AppInfo(), process: ProcessStamp(pid: getpid(), startTime: 0))
        let thread = Thread {
            LocationSystem.$override.withValue(system) {
                let manager = CLLocationManager()
                body(ManagerBox(manager)) { value in result.withLock { $0 = value } }
                let deadline = Date().addingTimeInterval(20)
                while result.withLock({ $0 == nil }), Date() < deadline {
                    _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.02))
                }
                withExtendedLifetime(manager) {}
            }
        }
        thread.start()
        _ = await eventually(timeout: .seconds(25)) { result.withLock { $0 != nil } }
        return result.withLock { $0 }
    }

    struct ManagerBox: @unchecked Sendable {
        let manager: CLLocationManager
        init(_ manager: CLLocationManager) { self.manager = manager }
    }

    /// What a spelling reported, and the accuracy the manager read then.
    struct Report: Sendable, Equatable {
        var error: CLError.Code?
        var accuracy: CLAccuracyAuthorization
        var onManagerThread: Bool
    }

    @Test func throughCLLocationManagerTheCompletionSpellingIsCalledOnItsThreadAfterTheGrant() async throws {
        let fixture = try Self.mapsDaemon(policy: "allow")
        let report = await Self.withManager(socketPath: fixture.socketPath) { (box, finish: @escaping @Sendable (Report) -> Void) in
            let thread = ObjectIdentifier(Thread.current)
            box.manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation") { error in
                finish(Report(error: (error as? CLError)?.code, accuracy: box.manager.accuracyAuthorization,
                              onManagerThread: ObjectIdentifier(Thread.current) == thread))
            }
        }
        #expect(report == Report(error: nil, accuracy: .fullAccuracy, onManagerThread: true))
        #expect(try fixture.store.read().apps["com.example.maps"]?.temporaryFullAccuracy?.process.pid == getpid())
    }

    @Test func throughCLLocationManagerTheAsyncSpellingThrowsPromptDeclinedForAMissingKey() async throws {
        let fixture = try Self.mapsDaemon(policy: "allow")
        let outcomes = await Self.withManager(socketPath: fixture.socketPath) { (box, finish: @escaping @Sendable ([CLError.Code?]) -> Void) in
            Task {
                var codes: [CLError.Code?] = []
                for key in ["Radar", "Navigation", "Navigation"] {
                    do {
                        try await box.manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: key)
                        codes.append(nil)
                    } catch {
                        codes.append((error as? CLError)?.code)
                    }
                }
                finish(codes)
            }
        }
        #expect(outcomes == [.promptDeclined, nil, .promptDeclined], "missing key; granted; already full")
    }
}
