import Foundation
import LocationCore
import LocationEngine
import LocationPolicy
import LocationProtocol
import Logging

/// The location service: one engine shared by every connected app, with each app's authorization
/// enforced here — before any location leaves the service — never in the app.
///
/// The same class runs in-process (when no `locationd` is found) and inside `locationd` (one per user).
/// All state is confined to the engine's loop.
public final class LocationService: LocationServiceProvider, @unchecked Sendable {
    public let engine: LocationEngine
    let store: any AuthorizationStore
    let prompter: (any AuthorizationPrompter)?
    let isAlive: @Sendable (ProcessStamp) -> Bool
    let logger: Logger
    private let lastClientID = Locked<UInt64>(0)
    /// Each app's monitored regions as of the last change, readable from any thread.
    private let publishedRegions = Locked<[String: [FenceRecord]]>([:])
    var loop: any EngineLoop { engine.loop }

    // Loop-confined state.
    var clients: [UInt64: Client] = [:]
    var database = AuthorizationDatabase()
    var storeError: String?
    private var lastToken: StoreChangeToken?
    /// Set while another process holds the store's lock (see ``reloadStore(force:)``).
    private var storeLocked = false
    /// The database as last read by the loop, for readers on other threads while the store is locked.
    private let lastRead = Locked<AuthorizationDatabase?>(nil)
    private var pendingPrompts: Set<String> = []
    /// Apps with a temporary full accuracy prompt showing (see LocationService+TemporaryFullAccuracy).
    var temporaryFullAccuracyPrompts: Set<String> = []
    /// Pending prompts nobody could answer, by app id, with the process that asked: asked again by
    /// ``retryPendingPrompts()`` (e.g. when `locationd` gains a prompt agent).
    private var unanswered: [String: (prompt: PromptRequest, process: ProcessStamp)] = [:]
    private var watching: ScheduledWork?
    /// Every app's fences; created on the loop before any request reaches it.
    private var fences: FenceKeeper!
    /// What each app with reduced accuracy has been told, and when.
    let approximations: ApproximateKeeper
    /// Apps monitoring visits (see LocationService+Visits).
    var visits: [String: AppVisits] = [:]
    let visitStorage: any VisitStorage

    /// - Parameters:
    ///   - prompter: who answers authorization requests; nil leaves them pending (and says so).
    ///   - isAlive: whether a process still runs (Allow Once lasts as long as its process).
    ///   - fenceStorage: where apps' fences and undelivered fence events are kept.
    ///   - fenceLimits: how many fences an app may have (Apple's 20 unless raised), and how large.
    ///   - approximateRegions: where an app with reduced accuracy is told it is.
    ///   - approximateStorage: where each app's approximate-location history is kept between runs.
    ///   - visitStorage: which apps monitor visits, kept between runs.
    public init(
        engine: LocationEngine, store: any AuthorizationStore, prompter: (any AuthorizationPrompter)?,
        isAlive: @escaping @Sendable (ProcessStamp) -> Bool,
        fenceStorage: any FenceStorage = MemoryFenceStorage(), fenceLimits: FenceLimits = FenceLimits(),
        approximateRegions: any ApproximateRegions = GridApproximateRegions(),
        approximateStorage: any ApproximateStorage = MemoryApproximateStorage(),
        visitStorage: any VisitStorage = MemoryVisitStorage(),
        logger: Logger = Logger(label: "corelocation.service")
    ) {
        self.engine = engine
        self.visitStorage = visitStorage
        approximations = ApproximateKeeper(regions: approximateRegions, storage: approximateStorage, logger: logger)
        self.store = store
        self.prompter = prompter
        self.isAlive = isAlive
        self.logger = logger
        loop.execute {
            let published = self.publishedRegions
            self.fences = FenceKeeper(
                engine: engine, storage: fenceStorage, limits: fenceLimits, logger: logger,
                publishRegions: { app, records in published.withLock { $0[app] = records.isEmpty ? nil : records } }
            ) { [unowned self] client, group, update in
                self.clients[client]?.events(.fences(group, update))
            }
            self.reloadStore(force: true)
            self.loadVisitFlags()
        }
    }

    // MARK: Connections

    public func connect(
        app: AppIdentity, info: AppInfo, process: ProcessStamp,
        events: @escaping @Sendable (ServiceEvent) -> Void
    ) -> any ClientConnection {
        let id = lastClientID.withLock { last in
            last += 1
            return last
        }
        let initial = currentAuthorization(app: app, process: process)
        loop.execute {
            // The store may have changed since the last poll: judge the new client on what it says now.
            self.reloadStore(force: false)
            self.clients[id] = Client(app: app, info: info, process: process, events: events, authorization: initial)
            // The store may have changed between the read above and now.
            self.reauthorize(clientID: id)
            if self.pendingPrompts.contains(app.id) { events(.authorizationRequestInProgress(true)) }
            self.deliverPendingVisits(to: id)
        }
        return InProcessConnection(id: id, service: self, initialAuthorization: initial)
    }

    func receive(_ request: ClientRequest, from id: UInt64) {
        loop.execute { self.handle(request, from: id) }
    }

    func disconnect(_ id: UInt64) {
        loop.execute {
            guard let client = self.clients.removeValue(forKey: id) else { return }
            for stream in client.streams.values { stream.subscription?.cancel() }
            for heading in client.headings.values { heading.cancel() }
            for ranging in client.rangings.values { ranging.subscription?.cancel() }
            self.fences.disconnected(app: client.app.id, client: id)
            self.updateFences(of: client.app.id)
            self.updateVisits(of: client.app.id)
            self.forgetUnansweredPromptIfNobodyWaits(client.app.id)
            self.reauthorizeProcessBoundGrants()
        }
    }

    /// An unanswered prompt of an app that has no connection left is dropped, so the app's next
    /// launch asks afresh instead of finding a request "in progress" that nobody will ever answer.
    /// (A prompt a prompter is still working on is kept: its answer is recorded when it comes.)
    private func forgetUnansweredPromptIfNobodyWaits(_ appID: String) {
        guard unanswered[appID] != nil, !clients.values.contains(where: { $0.app.id == appID }) else { return }
        unanswered[appID] = nil
        pendingPrompts.remove(appID)
    }

    // MARK: Watching the store

    /// Polls the store so that `locationctl grant|revoke|services` reach running apps within a second.
    public func startWatchingStore(every interval: TimeInterval = 0.25) {
        loop.execute {
            guard self.watching == nil else { return }
            self.scheduleWatch(interval)
        }
    }

    public func stopWatchingStore() {
        loop.execute {
            self.watching?.cancel()
            self.watching = nil
        }
    }

    /// Re-reads the store now and tells every affected client.
    public func refreshAuthorization() {
        loop.execute { self.reloadStore(force: true) }
    }

    private func scheduleWatch(_ interval: TimeInterval) {
        watching = loop.schedule(after: interval) {
            guard self.watching != nil else { return }
            self.reloadStore(force: false)
            self.reauthorizeProcessBoundGrants()
            self.scheduleWatch(interval)
        }
    }

    func reloadStore(force: Bool) {
        let token = store.changeToken()
        guard force || token != lastToken else { return }
        lastToken = token
        if token.isLocked {
            noteStoreLocked("another connection holds its lock")
            return
        }
        do {
            database = try store.readWithoutWaiting()
            lastRead.withLock { [database] in $0 = database }
            storeError = nil
            if storeLocked {
                storeLocked = false
                logger.notice("the authorization store is free again")
            }
        } catch let error as AuthorizationStoreError where error.code == .lockFailed {
            noteStoreLocked("\(error)")
            return
        } catch {
            if storeError == nil {
                logger.error("authorization store unreadable; denying all location access until it is fixed",
                             metadata: ["error": "\(error)"])
            }
            storeError = "\(error)"
        }
        for id in clients.keys { reauthorize(clientID: id) }
        // Apps without a connection keep their fences watched (with Always) or not.
        for app in fences.apps where !clients.values.contains(where: { $0.app.id == app }) { updateFences(of: app) }
        for app in Array(visits.keys) where !clients.values.contains(where: { $0.app.id == app }) { updateVisits(of: app) }
    }

    /// Another process holds the database (an administrator's sqlite3 shell, a backup): nobody can
    /// change it meanwhile, so the authorizations last read are still the store's; the next poll
    /// that finds it free reads it again.
    private func noteStoreLocked(_ reason: String) {
        lastToken = nil
        guard !storeLocked else { return }
        storeLocked = true
        logger.warning("the authorization store is locked by another process; using the authorizations last read",
                       metadata: ["reason": "\(reason)"])
    }

    /// Tells the fence keeper an app's authorization and whether it runs.
    private func updateFences(of appID: String) {
        let connected = clients.values.first { $0.app.id == appID }
        let authorization = connected?.authorization
            ?? (storeError != nil ? Self.failClosed : database.effectiveAuthorization(for: appID, isAlive: isAlive, now: loop.now))
        fences.update(app: appID, authorization: authorization, running: connected != nil)
    }

    /// Every app's fences, for `locationctl regions`; `reply` runs on the service's loop.
    public func listFences(reply: @escaping @Sendable ([AppFences]) -> Void) {
        loop.execute { reply(self.fences.listing()) }
    }

    // MARK: Authorization

    /// What every app gets while the store cannot be read: it never grants.
    static let failClosed = EffectiveAuthorization(status: .denied, accuracy: .reducedAccuracy, servicesEnabled: true)

    /// A failed store never grants: every app is denied until it can be read again.
    private func effective(for appID: String, process: ProcessStamp) -> EffectiveAuthorization {
        if storeError != nil {
            return Self.failClosed
        }
        return database.effectiveAuthorization(for: appID, isAlive: { $0 == process || self.isAlive($0) }, now: loop.now)
    }

    public var hasLocationSources: Bool { engine.hasSources }

    public var hasHeadingSources: Bool { engine.hasHeadingSources }

    public var hasBeaconSources: Bool { engine.hasBeaconSources }

    public func currentRegions(app: AppIdentity) -> [FenceRecord]? {
        publishedRegions.withLock { $0[app.id] ?? [] }
    }

    public func currentAuthorization(app: AppIdentity, process: ProcessStamp) -> EffectiveAuthorization {
        guard let database = try? readStoreWithoutWaiting() else { return Self.failClosed }
        return database.effectiveAuthorization(for: app.id, isAlive: { $0 == process || self.isAlive($0) }, now: loop.now)
    }

    /// The store as it is now, without waiting for a lock: while another process holds it (nobody can
    /// change it meanwhile) the database this service read last. Callable from any thread.
    /// - Throws: ``AuthorizationStoreError`` when the store cannot be read.
    public func readStoreWithoutWaiting() throws -> AuthorizationDatabase {
        do {
            return try store.readWithoutWaiting()
        } catch let error as AuthorizationStoreError where error.code == .lockFailed {
            guard let lastRead = lastRead.withLock({ $0 }) else { throw error }
            return lastRead
        }
    }

    func reauthorize(clientID id: UInt64) {
        guard let client = clients[id] else { return }
        let now = effective(for: client.app.id, process: client.process)
        let changed = now != client.authorization
        let accuracyChanged = now.accuracy != client.authorization.accuracy
        client.authorization = now
        if changed { client.events(.authorizationChanged(now)) }
        if pendingPrompts.contains(client.app.id), now.status != .notDetermined {
            pendingPrompts.remove(client.app.id)
            unanswered[client.app.id] = nil
            notifyApp(client.app.id, .authorizationRequestInProgress(false))
        }
        for streamID in client.streams.keys { enforce(clientID: id, streamID: streamID, accuracyChanged: accuracyChanged) }
        enforceRangings(clientID: id)
        updateFences(of: client.app.id)
        updateVisits(of: client.app.id)
    }

    private func requestAuthorization(_ level: AuthorizationLevel, clientID id: UInt64) {
        guard let client = clients[id] else { return }
        if pendingPrompts.contains(client.app.id) {
            logger.debug("authorization request already in progress", metadata: ["app": "\(client.app.id)"])
            return
        }
        guard storeError == nil else {
            logger.error("authorization request refused: the authorization store is unreadable",
                         metadata: ["app": "\(client.app.id)"])
            return
        }
        let outcome = AuthorizationRules.evaluate(
            level, app: client.app, info: client.info,
            record: database.apps[client.app.id], effective: client.authorization)
        switch outcome {
        case .ignored(let reason):
            logger.debug("authorization request has no effect", metadata: ["app": "\(client.app.id)", "reason": "\(reason)"])
        case .missingUsageDescription(let key):
            logger.error("""
                \(client.app.displayName): location authorization request failed: the app's Info.plist has no \
                \(key). Add it (next to the executable, or via CORELOCATION_INFO_PLIST) with a sentence telling \
                the user why the app needs their location.
                """)
        case .prompt(let prompt):
            pendingPrompts.insert(client.app.id)
            notifyApp(client.app.id, .authorizationRequestInProgress(true))
            ask(prompt, process: client.process)
        }
    }

    private func ask(_ prompt: PromptRequest, process: ProcessStamp) {
        guard let prompter else { return answered(nil, prompt: prompt, process: process) }
        prompter.prompt(prompt) { answer in
            self.loop.execute { self.answered(answer, prompt: prompt, process: process) }
        }
    }

    /// Asks the prompter again for every request left pending because nobody could answer it — for
    /// `locationd` when a prompt agent registers, so an app waiting since before the agent started
    /// gets asked. A request whose app has no connection left is dropped instead.
    public func retryPendingPrompts() {
        loop.execute {
            let waiting = self.unanswered
            self.unanswered.removeAll()
            for (appID, entry) in waiting.sorted(by: { $0.key < $1.key }) {
                // The process that asked, if still connected, else another running instance of the
                // app: Allow Once must go to a process that is still there.
                let connected = self.clients.values.filter { $0.app.id == appID }
                guard let process = connected.first(where: { $0.process == entry.process })?.process
                        ?? connected.first?.process else {
                    self.pendingPrompts.remove(appID)
                    continue
                }
                self.ask(entry.prompt, process: process)
            }
        }
    }

    private func answered(_ answer: PromptAnswer?, prompt: PromptRequest, process: ProcessStamp) {
        let app = prompt.app
        guard let answer else {
            // Settled meanwhile (e.g. `locationctl grant`): nothing is waiting any more.
            guard pendingPrompts.contains(app.id) else { return }
            unanswered[app.id] = (prompt, process)
            logger.notice("""
                \(app.displayName) is waiting for location authorization and nobody can answer here \
                (no agent, terminal or prompt policy). Answer with `locationctl grant \(app.id)` (with \
                `--always` or `--approximate`) or `locationctl revoke \(app.id)`, run `locationctl agent` \
                when locationd serves the app, or set CORELOCATION_PROMPT_POLICY=allow|allow-once|always|deny.
                """)
            return
        }
        do {
            var settledElsewhere = false
            try store.update { db in
                db.removeExpiredAllowOnce { $0 == process || self.isAlive($0) }
                // The first question was answered meanwhile in the settings (`locationctl grant|revoke`
                // while the agent still showed it): the user's explicit setting stands.
                if prompt.kind == .initial, let record = db.apps[app.id], record.status != .notDetermined {
                    settledElsewhere = true
                    return
                }
                db.apps[app.id] = AuthorizationRules.apply(
                    answer, to: db.apps[app.id], request: prompt, process: process, now: self.loop.now)
            }
            if settledElsewhere {
                logger.info("ignoring a late answer: the app's authorization was set meanwhile", metadata: ["app": "\(app.id)"])
            }
        } catch {
            logger.error("could not record the authorization answer", metadata: ["error": "\(error)"])
        }
        pendingPrompts.remove(app.id)
        unanswered[app.id] = nil
        notifyApp(app.id, .authorizationRequestInProgress(false))
        reloadStore(force: true)
    }

    private func notifyApp(_ appID: String, _ event: ServiceEvent) {
        for client in clients.values where client.app.id == appID { client.events(event) }
    }

    // MARK: Streams

    private func handle(_ request: ClientRequest, from id: UInt64) {
        guard clients[id] != nil else { return }
        switch request {
        case .requestAuthorization(let level):
            requestAuthorization(level, clientID: id)
        case .startUpdates(let streamID, let update):
            // Visits are the app's (`startVisits`), never a stream's: such a stream would run the
            // receiver for nothing.
            guard update.mode != .visits else { return }
            if let existing = clients[id]?.streams[streamID] {
                existing.subscription?.cancel()
            }
            clients[id]?.streams[streamID] = Stream(request: update)
            enforce(clientID: id, streamID: streamID, accuracyChanged: false)
        case .changeUpdates(let streamID, let update):
            guard update.mode != .visits, var stream = clients[id]?.streams[streamID] else { return }
            stream.request = update
            clients[id]?.streams[streamID] = stream
            if let authorization = clients[id]?.authorization {
                stream.subscription?.update(Self.engineRequest(update, authorization))
            }
        case .resumeUpdates(let streamID):
            clients[id]?.streams[streamID]?.subscription?.resume()
        case .stopUpdates(let streamID):
            clients[id]?.streams.removeValue(forKey: streamID)?.subscription?.cancel()
        case .openFences(let group):
            guard let app = clients[id]?.app.id else { return }
            fences.open(group, app: app, client: id)
        case .closeFences(let group):
            guard let app = clients[id]?.app.id else { return }
            fences.close(group, app: app, client: id)
        case let .addFence(group, definition):
            guard let app = clients[id]?.app.id else { return }
            fences.add(definition, to: group, app: app, client: id)
        case let .removeFence(group, identifier):
            guard let app = clients[id]?.app.id else { return }
            fences.remove(identifier, from: group, app: app)
        case let .requestFenceState(group, identifier):
            guard let app = clients[id]?.app.id else { return }
            fences.requestState(identifier, in: group, app: app, client: id)
        case let .requestTemporaryFullAccuracy(request, purposeKey):
            requestTemporaryFullAccuracy(request, purposeKey: purposeKey, clientID: id)
        case .endTemporaryFullAccuracy:
            endTemporaryFullAccuracy(clientID: id)
        case .startVisits:
            startVisits(clientID: id)
        case .stopVisits:
            stopVisits(clientID: id)
        case let .startHeading(streamID, request):
            clients[id]?.headings.removeValue(forKey: streamID)?.cancel()
            guard let account = clients[id]?.app.id else { return }
            clients[id]?.headings[streamID] = engine.subscribeHeading(request, account: account) { sample in
                self.deliverHeading(sample, clientID: id, streamID: streamID)
            }
        case .stopHeading(let streamID):
            clients[id]?.headings.removeValue(forKey: streamID)?.cancel()
        case let .startRanging(streamID, constraint):
            startRanging(streamID, constraint, clientID: id)
        case .stopRanging(let streamID):
            stopRanging(streamID, clientID: id)
        }
    }

    /// Makes a stream's engine subscription match the client's authorization: the one place
    /// where access is granted or withdrawn.
    private func enforce(clientID id: UInt64, streamID: StreamID, accuracyChanged: Bool) {
        guard let client = clients[id], var stream = client.streams[streamID] else { return }
        let authorization = client.authorization
        if authorization.status.isAuthorized {
            if stream.subscription != nil && !accuracyChanged { return }
            stream.subscription?.cancel()
            // A stream's request never changes (a new request is a new stream), so whether it asks
            // for reduced accuracy itself is settled here, not looked up for every fix.
            let asksReduced = Self.asksReducedAccuracy(stream.request)
            stream.subscription = engine.subscribe(Self.engineRequest(stream.request, authorization),
                                                   account: client.app.id) { event in
                self.deliver(event, clientID: id, streamID: streamID, asksReduced: asksReduced)
            }
            clients[id]?.streams[streamID] = stream
            return
        }
        stream.subscription?.cancel()
        stream.subscription = nil
        clients[id]?.streams[streamID] = stream
        guard authorization.status == .denied || authorization.status == .restricted else { return }
        client.events(.stream(streamID, .failed(.denied)))
        if stream.request.mode == .single {
            clients[id]?.streams[streamID] = nil
            client.events(.stream(streamID, .completed))
        }
    }

    /// Whether a stream gets approximate locations: the app lacks full accuracy, or it asked for
    /// reduced accuracy itself (`desiredAccuracy = kCLLocationAccuracyReduced`, which Apple honours
    /// even for apps with full accuracy).
    private static func isApproximate(_ request: UpdateRequest, _ authorization: EffectiveAuthorization) -> Bool {
        authorization.accuracy == .reducedAccuracy || asksReducedAccuracy(request)
    }

    private static func asksReducedAccuracy(_ request: UpdateRequest) -> Bool {
        request.desiredAccuracy >= ApproximateLocation.requestedAccuracy
    }

    /// Approximate streams ask the engine for coarse data only: cheaper sources, fewer wake-ups.
    private static func engineRequest(_ request: UpdateRequest, _ authorization: EffectiveAuthorization) -> UpdateRequest {
        guard isApproximate(request, authorization) else { return request }
        var coarse = request
        coarse.desiredAccuracy = ApproximateLocation.engineAccuracy
        return coarse
    }

    /// Where an engine event becomes a service event: the only place the service looks inside one.
    private func deliver(_ event: StreamEvent, clientID id: UInt64, streamID: StreamID, asksReduced: Bool) {
        guard let client = clients[id], let index = client.streams.index(forKey: streamID) else { return }
        // Checked again at delivery: nothing leaves the service for an app not authorized now.
        guard client.authorization.status.isAuthorized else { return }
        switch event {
        case .locations(let fixes):
            // The stream is read and changed where it lies, and only when approximate: this runs
            // for every client on every fix, and copying the stream out cost more than the check.
            if client.authorization.accuracy == .reducedAccuracy || asksReduced {
                guard let fix = fixes.last,
                      let (report, generation) = approximations.observe(fix, appID: client.app.id, now: loop.now),
                      client.streams.values[index].approximateGeneration != generation
                else { return }
                client.streams.values[index].approximateGeneration = generation
                client.events(.stream(streamID, .locations([report.fix])))
                return
            }
            guard !fixes.isEmpty else { return }
        case .completed:
            clients[id]?.streams[streamID] = nil
        case .failed, .paused, .stationary, .sourceFinished, .heading, .beacons:
            break
        case .visit:
            // Visits are the app's, not a stream's: they leave through LocationService+Visits.
            return
        }
        client.events(.stream(streamID, event))
    }

    /// A heading for a client. The magnetic heading needs no authorization: it says which way the
    /// device points, not where it is. The true heading carries the magnetic declination at the
    /// device's position, so it goes only to a client authorized with full accuracy that runs a
    /// location stream (Apple: the true heading is valid only while location updates run).
    private func deliverHeading(_ sample: HeadingSample, clientID id: UInt64, streamID: StreamID) {
        guard let client = clients[id], client.headings[streamID] != nil else { return }
        var sample = sample
        let locating = client.streams.values.contains { $0.subscription != nil }
        if !(client.authorization.status.isAuthorized && client.authorization.accuracy == .fullAccuracy && locating) {
            sample.trueHeading = nil
        }
        client.events(.stream(streamID, .heading(sample)))
    }
}

/// A connected client (loop-confined). A class: every fix for every stream looks its client up, and
/// copying a struct of identity, Info.plist keys and streams there cost more than the delivery itself.
final class Client {
    let app: AppIdentity
    let info: AppInfo
    let process: ProcessStamp
    let events: @Sendable (ServiceEvent) -> Void
    var authorization: EffectiveAuthorization
    fileprivate var streams: [StreamID: Stream] = [:]
    /// Heading streams, by the client's stream id.
    var headings: [StreamID: EngineHeadingSubscription] = [:]
    /// Ranging streams, by the client's stream id (see LocationService+Ranging).
    var rangings: [StreamID: Ranging] = [:]

    init(app: AppIdentity, info: AppInfo, process: ProcessStamp, events: @escaping @Sendable (ServiceEvent) -> Void,
         authorization: EffectiveAuthorization) {
        self.app = app
        self.info = info
        self.process = process
        self.events = events
        self.authorization = authorization
    }
}

private struct Stream {
    var request: UpdateRequest
    var subscription: EngineSubscription?
    /// The generation of its app's approximate history this stream last delivered (nil: none yet).
    var approximateGeneration: UInt64?
}

/// The in-process transport: requests become direct calls into the service.
final class InProcessConnection: ClientConnection {
    let id: UInt64
    let service: LocationService
    let initialAuthorization: EffectiveAuthorization?

    init(id: UInt64, service: LocationService, initialAuthorization: EffectiveAuthorization) {
        self.id = id
        self.service = service
        self.initialAuthorization = initialAuthorization
    }

    func send(_ request: ClientRequest) { service.receive(request, from: id) }
    func close() { service.disconnect(id) }
}
