import CoreLocation
import Foundation
import LocationAccess
import LocationBootstrap
import LocationCore
import LocationEngine
import LocationPolicy
import LocationProtocol
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
///
/// Its public face uses only Core Location's types and its own; the engine, store and service
/// behind it are the package's (`package` access), for this package's own tests.
public final class LocationTestHarness: @unchecked Sendable {
    /// How the scripted user answers an authorization prompt.
    public enum Answer: Sendable, Equatable {
        // Answers to the first question.
        case allowOnce(precise: Bool)
        case allowWhileUsing(precise: Bool)
        case dontAllow
        // Answers to the question after When In Use.
        case changeToAlways
        case keepWhileUsing
        // Answers to `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`: Allow Once / Don't Allow.
        case allowTemporaryFullAccuracy
        case denyTemporaryFullAccuracy

        var promptAnswer: PromptAnswer {
            switch self {
            case .allowOnce(let precise): .allowOnce(precise: precise)
            case .allowWhileUsing(let precise): .allowWhileUsing(precise: precise)
            case .dontAllow: .dontAllow
            case .changeToAlways: .changeToAlways
            case .keepWhileUsing: .keepWhileUsing
            case .allowTemporaryFullAccuracy: .allowTemporaryFullAccuracy
            case .denyTemporaryFullAccuracy: .denyTemporaryFullAccuracy
            }
        }
    }

    package let loop: VirtualLoop
    package let engine: LocationEngine
    package let service: LocationService
    package let store: MemoryAuthorizationStore
    package let prompter: ScriptedPrompter
    package let app: AppIdentity
    package let info: AppInfo
    package let process: ProcessStamp
    /// The processes the service counts as running (Allow Once and temporary full accuracy last as
    /// long as theirs): the harness's own, and whichever a test adds or ends.
    package let liveProcesses: Locked<Set<ProcessStamp>>

    /// - Parameters:
    ///   - sources: what the engine may run.
    ///   - answer: how the scripted user answers prompts (nil: nobody answers).
    ///   - fenceStorage: where the service keeps fences; a new harness given the storage of an
    ///     earlier one is that service restarted.
    ///   - approximateStorage: where it keeps approximate-location histories, likewise.
    ///   - visitStorage: which apps monitor visits, likewise.
    ///   - now: when the virtual clock starts.
    package init(
        sources: [any LocationSource], app: AppIdentity = LocationTestHarness.defaultApp,
        info: AppInfo = LocationTestHarness.defaultInfo, answer: Answer? = .allowWhileUsing(precise: true),
        tuning: EngineTuning = EngineTuning(), process: ProcessStamp = ProcessStamp(pid: 4242, startTime: 1),
        fenceStorage: any FenceStorage = MemoryFenceStorage(), fenceLimits: FenceLimits = FenceLimits(),
        approximateRegions: any ApproximateRegions = GridApproximateRegions(),
        approximateStorage: any ApproximateStorage = MemoryApproximateStorage(),
        visitStorage: any VisitStorage = MemoryVisitStorage(),
        now: Date = VirtualLoop.defaultEpoch
    ) {
        loop = VirtualLoop(now: now)
        engine = LocationEngine(loop: loop, sources: sources, tuning: tuning)
        store = MemoryAuthorizationStore()
        prompter = ScriptedPrompter(answer: answer?.promptAnswer)
        self.app = app
        self.info = info
        self.process = process
        let live = Locked<Set<ProcessStamp>>([process])
        liveProcesses = live
        service = LocationService(
            engine: engine, store: store, prompter: prompter, isAlive: { stamp in live.withLock { $0.contains(stamp) } },
            fenceStorage: fenceStorage, fenceLimits: fenceLimits,
            approximateRegions: approximateRegions, approximateStorage: approximateStorage,
            visitStorage: visitStorage)
        loop.run()
    }

    /// A world with the sources made from a spec such as `sim:walk` or `fixed:52.52,13.40`, or several
    /// separated by `;` as in `CORELOCATION_SOURCE` (`fixed:52.52,13.40;compass:0`), for an
    /// app whose Info.plist has both usage descriptions. `speed`: simulated seconds per second of
    /// virtual time; nil: the spec's own `?speed=N`, else 1.
    /// - Throws: when the spec names no source (the error says which specs exist).
    public convenience init(
        source spec: String, speed: Double? = nil, answer: Answer? = .allowWhileUsing(precise: true)
    ) throws {
        try self.init(source: spec, speed: speed, app: Self.defaultApp, info: Self.defaultInfo, answer: answer)
    }

    package convenience init(
        source spec: String, speed: Double? = nil, app: AppIdentity,
        info: AppInfo = LocationTestHarness.defaultInfo, answer: Answer? = .allowWhileUsing(precise: true)
    ) throws {
        let sources = try SourceSpec.makeSources(spec.split(separator: ";").map { try SourceSpec(String($0)) }, speed: speed)
        self.init(sources: sources, app: app, info: info, answer: answer)
    }

    package static let defaultApp = AppIdentity(
        id: "com.example.TestApp", displayName: "TestApp", executablePath: "/usr/local/bin/testapp")
    package static let defaultInfo = AppInfo(
        bundleIdentifier: "com.example.TestApp", displayName: "TestApp",
        whenInUseUsageDescription: "Shows where you are.",
        alwaysAndWhenInUseUsageDescription: "Tracks your trips in the background.")

    var system: LocationSystem { system(as: process) }

    /// This world seen by another process of the same app (add it to ``liveProcesses`` while it runs).
    package func system(as process: ProcessStamp) -> LocationSystem {
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
    package func updateStore(_ body: (inout AuthorizationDatabase) -> Void) throws {
        try store.update { body(&$0) }
        service.refreshAuthorization()
        settle()
    }

    /// Turns the device-wide Location Services switch on or off, as `locationctl services` would.
    /// - Throws: the store's error when it cannot be written.
    public func setLocationServicesEnabled(_ enabled: Bool) throws {
        try updateStore { $0.servicesEnabled = enabled }
    }

    /// How the scripted user answers prompts from now on (nil: nobody answers).
    public var answer: Answer? {
        get { prompter.answer.map(Answer.init) }
        set { prompter.answer = newValue?.promptAnswer }
    }

    /// How many authorization prompts the app has caused so far.
    public var promptCount: Int { prompter.requests.count }

    private func pumpRunLoop() {
        guard !Thread.isMainThread else { return }
        for _ in 0..<4 {
            _ = RunLoop.current.run(mode: .default, before: Date())
        }
    }
}

/// Stands in for the user: answers every prompt the same way and remembers what was asked.
package final class ScriptedPrompter: AuthorizationPrompter, @unchecked Sendable {
    private let state: Locked<(answer: PromptAnswer?, requests: [PromptRequest])>

    package init(answer: PromptAnswer?) { state = Locked((answer, [])) }

    /// The answer to give from now on (nil: nobody answers).
    package var answer: PromptAnswer? {
        get { state.withLock { $0.answer } }
        set { state.withLock { $0.answer = newValue } }
    }

    /// Every prompt shown so far.
    package var requests: [PromptRequest] { state.withLock { $0.requests } }

    package func prompt(_ request: PromptRequest, completion: @escaping @Sendable (PromptAnswer?) -> Void) {
        let answer = state.withLock { state -> PromptAnswer? in
            state.requests.append(request)
            return state.answer
        }
        completion(answer)
    }
}

extension LocationTestHarness.Answer {
    init(_ answer: PromptAnswer) {
        switch answer {
        case .allowOnce(let precise): self = .allowOnce(precise: precise)
        case .allowWhileUsing(let precise): self = .allowWhileUsing(precise: precise)
        case .dontAllow: self = .dontAllow
        case .changeToAlways: self = .changeToAlways
        case .keepWhileUsing: self = .keepWhileUsing
        case .allowTemporaryFullAccuracy: self = .allowTemporaryFullAccuracy
        case .denyTemporaryFullAccuracy: self = .denyTemporaryFullAccuracy
        }
    }
}
