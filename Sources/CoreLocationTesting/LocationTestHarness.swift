import CoreLocation
import Foundation
import LocationBootstrap
import LocationCore
import LocationEngine
import LocationPolicy
import LocationProtocol
import LocationAccess
import LocationSources

/// A deterministic world for testing location logic: a virtual clock, chosen sources, an
/// in-memory authorization store and scripted answers to authorization prompts.
///
/// Managers and `liveUpdates()` created inside `run { … }` use this world instead of the real
/// one, so tests can run in parallel:
///
/// ```swift
/// let world = try LocationTestHarness(source: "sim:city-drive", answer: .allowWhileUsing(precise: true))
/// world.run {
///     let manager = CLLocationManager()
///     manager.delegate = recorder
///     manager.requestWhenInUseAuthorization()
///     manager.startUpdatingLocation()
///     world.advance(by: 3600)   // an hour of driving, in milliseconds
/// }
/// ```
public final class LocationTestHarness: @unchecked Sendable {
    public let loop: VirtualLoop
    public let engine: LocationEngine
    public let service: LocationService
    public let store: MemoryAuthorizationStore
    public let prompter: ScriptedPrompter
    public let app: AppIdentity
    public let info: AppInfo
    public let process: ProcessStamp

    /// - Parameters:
    ///   - sources: what the engine may run.
    ///   - answer: how the scripted user answers prompts (nil: nobody answers).
    public init(
        sources: [any LocationSource], app: AppIdentity = LocationTestHarness.defaultApp,
        info: AppInfo = LocationTestHarness.defaultInfo, answer: PromptAnswer? = .allowWhileUsing(precise: true),
        tuning: EngineTuning = EngineTuning(), process: ProcessStamp = ProcessStamp(pid: 4242, startTime: 1)
    ) {
        loop = VirtualLoop()
        engine = LocationEngine(loop: loop, sources: sources, tuning: tuning)
        store = MemoryAuthorizationStore()
        prompter = ScriptedPrompter(answer: answer)
        self.app = app
        self.info = info
        self.process = process
        let live = process
        service = LocationService(engine: engine, store: store, prompter: prompter, isAlive: { $0 == live })
        loop.run()
    }

    /// A world with one source made from a spec such as `sim:walk` or `fixed:52.52,13.40`.
    public convenience init(
        source spec: String, speed: Double = 1, app: AppIdentity = LocationTestHarness.defaultApp,
        info: AppInfo = LocationTestHarness.defaultInfo, answer: PromptAnswer? = .allowWhileUsing(precise: true)
    ) throws {
        let source = try SourceSpec(spec).makeSource(speed: speed)
        self.init(sources: [source], app: app, info: info, answer: answer)
    }

    public static let defaultApp = AppIdentity(
        id: "com.example.TestApp", displayName: "TestApp", executablePath: "/usr/local/bin/testapp")
    public static let defaultInfo = AppInfo(
        bundleIdentifier: "com.example.TestApp", displayName: "TestApp",
        whenInUseUsageDescription: "Shows where you are.",
        alwaysAndWhenInUseUsageDescription: "Tracks your trips in the background.")

    var system: LocationSystem {
        LocationSystem(provider: service, app: app, info: info, process: process)
    }

    /// Runs `body` in this world: managers and live updates created inside it use this harness.
    public func run<R>(_ body: () throws -> R) rethrows -> R {
        try LocationSystem.$override.withValue(system, operation: body)
    }

    /// Runs `body` in this world (async form).
    public func run<R>(_ body: () async throws -> R) async rethrows -> R {
        try await LocationSystem.$override.withValue(system, operation: body)
    }

    /// Moves virtual time forward in steps, running the engine and then delivering the callbacks
    /// queued for the calling thread's run loop after each step.
    public func advance(by seconds: TimeInterval, step: TimeInterval = 1) {
        let end = loop.now.addingTimeInterval(seconds)
        while loop.now < end {
            loop.advance(to: min(end, loop.now.addingTimeInterval(step)))
            pumpRunLoop()
        }
        settle()
    }

    /// Runs everything due now and delivers pending callbacks, until nothing is left to do.
    public func settle() {
        for _ in 0..<8 {
            loop.run()
            pumpRunLoop()
        }
    }

    /// Sets the app's stored decision, as `locationctl grant|revoke` would, and tells running apps.
    /// - Throws: the store's error when it cannot be written (see ``updateStore(_:)``).
    public func setAuthorization(_ status: CLAuthorizationStatus, accuracy: CLAccuracyAuthorization = .fullAccuracy) throws {
        let app = self.app
        try updateStore { database in
            database.apps[app.id] = AppRecord(
                status: AuthorizationStatus(rawValue: status.rawValue) ?? .notDetermined,
                accuracy: AccuracyAuthorization(rawValue: accuracy.rawValue) ?? .reducedAccuracy,
                displayName: app.displayName, executablePath: app.executablePath, updated: loop.now)
        }
    }

    /// Changes what the store says, as `locationctl` would, and tells the running apps.
    /// - Throws: the store's error when it cannot be written (after `store.simulateFailure(_:)`, say):
    ///   the test then knows the change did not happen, instead of going on in a world it did not make.
    public func updateStore(_ body: (inout AuthorizationDatabase) -> Void) throws {
        try store.update { body(&$0) }
        service.refreshAuthorization()
        settle()
    }

    private func pumpRunLoop() {
        guard !Thread.isMainThread else { return }
        for _ in 0..<4 {
            _ = RunLoop.current.run(mode: .default, before: Date())
        }
    }
}

/// Stands in for the user: answers every prompt the same way and remembers what was asked.
public final class ScriptedPrompter: AuthorizationPrompter, @unchecked Sendable {
    private let state: Locked<(answer: PromptAnswer?, requests: [PromptRequest])>

    public init(answer: PromptAnswer?) { state = Locked((answer, [])) }

    /// The answer to give from now on (nil: nobody answers).
    public var answer: PromptAnswer? {
        get { state.withLock { $0.answer } }
        set { state.withLock { $0.answer = newValue } }
    }

    /// Every prompt shown so far.
    public var requests: [PromptRequest] { state.withLock { $0.requests } }

    public func prompt(_ request: PromptRequest, completion: @escaping @Sendable (PromptAnswer?) -> Void) {
        let answer = state.withLock { state -> PromptAnswer? in
            state.requests.append(request)
            return state.answer
        }
        completion(answer)
    }
}
