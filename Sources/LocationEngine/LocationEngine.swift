import Foundation
import LocationCore
import LocationGeodesy
import LocationProtocol
import LocationSources
import Logging

/// One engine per device: runs only the sources that current demand needs and shapes what each
/// subscriber receives (distance filter, desired accuracy, pausing, single requests).
///
/// All state lives inside `loop`: public methods may be called from any thread and hop onto it;
/// handlers are called inside it and must not block.
public final class LocationEngine: @unchecked Sendable {
    public let loop: any EngineLoop
    public let tuning: EngineTuning
    let sources: [any LocationSource]
    let logger: Logger
    private let published = Locked(EngineStatus())
    let lastID = Locked<UInt64>(0)

    // Loop-confined state.
    private var subscriptions: [UInt64: SubscriptionState] = [:]
    /// The demanding subscribers' shares, kept by the subscriptions themselves (see SubscriptionState).
    private let demand = DemandLedger()
    private var active: (any LocationSource)?
    private var generation = 0
    var finishedSources: Set<ObjectIdentifier> = []
    var lastFix: Fix?
    /// Heading subscribers, and the source running for them alone (nil when none runs, or when the
    /// location source reports headings too and serves them).
    var headingSubscriptions: [UInt64: HeadingSubscriptionState] = [:]
    var headingActive: (any LocationSource)?
    var headingGeneration = 0
    /// The heading source run for headings alone is metered apart: `energy` follows one location
    /// source at a time.
    var headingEnergy = EnergyMeter()
    /// Beacon ranging (`LocationEngine+Beacons`): its subscribers, the source scanning for them, what
    /// it heard and the ranging timer. Metered apart, like the heading source.
    var beaconSubscriptions: [UInt64: BeaconSubscriptionState] = [:]
    var beaconActive: (any LocationSource)?
    var beaconGeneration = 0
    var beaconEnergy = EnergyMeter()
    var beaconRanger = BeaconRanger()
    var beaconTimer: ScheduledWork?
    /// Why no beacon source can scan now; nil while one can.
    var beaconUnavailable: String?
    private var sourceHasFix = true
    private var movement: MovementDetector
    private var energy = EnergyMeter()
    /// The active source has not delivered a fix since it started (it is acquiring).
    private var acquiring = false

    public init(
        loop: any EngineLoop, sources: [any LocationSource], tuning: EngineTuning = EngineTuning(),
        logger: Logger = Logger(label: "corelocation.engine")
    ) {
        self.loop = loop
        self.sources = sources
        self.tuning = tuning
        self.logger = logger
        movement = MovementDetector(radius: tuning.stationaryRadius)
        beaconRanger = BeaconRanger(parameters: tuning.beaconRanging)
    }

    /// Whether the engine was given any source of locations.
    public var hasSources: Bool { sources.contains { $0.descriptor.measures.contains(.location) } }

    /// What the engine is doing, as of its last change; readable from any thread.
    public var status: EngineStatus { published.withLock { $0 } }

    /// Starts delivering to `handler` according to `request`.
    ///
    /// - Parameter account: whom the energy this subscriber makes the engine spend is booked to
    ///   (`EnergyReport.byAccount`): the app, for `locationd`.
    public func subscribe(
        _ request: UpdateRequest, account: String = "", handler: @escaping @Sendable (StreamEvent) -> Void
    ) -> EngineSubscription {
        let id = lastID.withLock { last in
            last += 1
            return last
        }
        loop.execute { self.add(id: id, request: request, account: account, handler: handler) }
        return EngineSubscription(id: id, engine: self)
    }

    /// Gives the engine a last known fix from before it started (e.g. `locationd`'s sealed copy from
    /// its previous run), handed to new subscribers like any cached fix. Ignored once the engine has
    /// a fix of its own.
    public func restoreLastFix(_ fix: Fix) {
        loop.execute {
            guard self.lastFix == nil, fix.hasValidPosition else { return }
            self.lastFix = fix
            self.publish()
        }
    }

    /// Brings `status` up to the loop's present: it is otherwise published when something changes,
    /// so the energy of a source left running (or resting) is counted up to its last change only.
    public func publishStatus() {
        loop.execute { self.publish() }
    }

    // MARK: Subscription control (called by EngineSubscription)

    func update(_ id: UInt64, request: UpdateRequest) {
        loop.execute {
            guard self.subscriptions[id] != nil else { return }
            self.subscriptions[id]?.request = request
            self.reconcileDemand()
        }
    }

    func resume(_ id: UInt64) {
        loop.execute {
            guard let state = self.subscriptions[id], state.paused else { return }
            state.paused = false
            state.lastDelivered = nil
            state.firstSeen = nil
            self.deliverCached(to: id)
            self.reconcileDemand()
        }
    }

    func cancel(_ id: UInt64) {
        loop.execute {
            guard let state = self.subscriptions.removeValue(forKey: id) else { return }
            state.isSubscribed = false
            state.timeout?.cancel()
            state.wake?.cancel()
            self.reconcileDemand()
        }
    }

    // MARK: Loop-confined logic

    private func add(id: UInt64, request: UpdateRequest, account: String,
                     handler: @escaping @Sendable (StreamEvent) -> Void) {
        let state = SubscriptionState(request: request, account: account, demand: demand, handler: handler)
        if request.mode == .single {
            state.timeout = loop.schedule(after: tuning.singleRequestTimeout) { self.singleTimedOut(id) }
        }
        subscriptions[id] = state
        state.isSubscribed = true
        switch request.mode {
        case .single: break
        // Apple starts significant change with a current fix, not a remembered one; visits
        // decide from fresh fixes only.
        case .significantChange: beginWake(id)
        case .visits:
            state.visits = VisitDetector(parameters: tuning.visits)
            beginWake(id)
        case .continuous, .live: deliverCached(to: id)
        }
        reconcileDemand()
        if !sourceHasFix, active != nil, request.mode != .single {
            subscriptions[id]?.reportedUnknown = true
            handler(.failed(.locationUnknown))
        }
    }

    /// Core Location may hand a new subscriber the last known fix at once; apps check its timestamp.
    private func deliverCached(to id: UInt64) {
        guard let fix = lastFix, let state = subscriptions[id] else { return }
        state.lastDelivered = fix
        state.handler(.locations([fix]))
    }

    func reconcileDemand() {
        let wanted: (any LocationSource)?
        if demand.count == 0 {
            wanted = nil
        } else {
            let required = demand.strictestRequiredAccuracy ?? 0
            let candidates = sources.filter {
                $0.descriptor.measures.contains(.location) && !finishedSources.contains(ObjectIdentifier($0))
            }
            wanted = SourceSelector.choose(from: candidates, requiredAccuracy: required)
        }
        energy.demandChanged(services: demand.services, accounts: demand.accounts, at: loop.now)
        accountHeadingDemand()
        accountBeaconDemand()
        // The heading and beacon sources are stopped before the location source starts and started
        // after it stopped: one source may pass from one role to another.
        let wantedHeading = headingSourceWanted(alongside: wanted)
        let wantedBeacons = beaconSourceWanted(alongside: wanted)
        if let headingActive, !(wantedHeading.map { $0 === headingActive } ?? false) { stopHeadingSource() }
        if let beaconActive, !(wantedBeacons.map { $0 === beaconActive } ?? false) { stopBeaconSource() }
        switchLocationSource(to: wanted, demanding: demand.count > 0)
        if let wantedHeading, headingActive == nil { startHeadingSource(wantedHeading) }
        if let wantedBeacons, beaconActive == nil { startBeaconSource(wantedBeacons) }
        reconcileBeaconRanging(locationSource: wanted)
        publish()
    }

    private func switchLocationSource(to wanted: (any LocationSource)?, demanding: Bool) {
        if let active, let wanted, active === wanted { return }
        if let active {
            active.stop()
            energy.stopped(at: loop.now)
            logger.debug("stopped source", metadata: ["source": "\(active.descriptor.name)"])
            self.active = nil
        }
        if let wanted {
            generation += 1
            let current = generation
            active = wanted
            sourceHasFix = true
            acquiring = true
            energy.started(name: wanted.descriptor.name, power: wanted.descriptor.power, at: loop.now)
            logger.debug("starting source", metadata: ["source": "\(wanted.descriptor.name)"])
            wanted.start(on: loop) { event in
                self.loop.preconditionInLoop()
                guard current == self.generation else { return }
                self.handle(event, from: wanted)
            }
        } else if demanding {
            // Demand but no source left (none configured, or all finished): say so, once.
            handle(.noFix(reason: "no location source available"), from: nil)
        }
    }

    /// Tells the energy meter who demands the source now, so its energy is shared among them.
    private func handle(_ event: SourceEvent, from source: (any LocationSource)?) {
        switch event {
        case .fix(let fix):
            guard fix.hasValidPosition else { return }
            if acquiring {
                acquiring = false
                energy.receivedFix(at: loop.now)
            }
            sourceHasFix = true
            lastFix = fix
            movement.observe(fix)
            // One array for every subscriber: not an allocation per subscriber per fix.
            let fixes = [fix]
            let stillFor = movement.stillFor(at: fix.timestamp)
            var demandChanged = false
            // A snapshot: handlers may subscribe and cancel meanwhile. A subscription cancelled
            // during the round says so itself (`isSubscribed`), without a lookup per subscriber.
            for (id, state) in Array(subscriptions) where state.isSubscribed && offer(fix, fixes, stillFor: stillFor, to: state, id: id) {
                demandChanged = true
            }
            // Demand changes only when a subscriber pauses or completes; re-choosing the source on
            // every fix scanned every subscription for nothing (measurable at 1,000 subscribers).
            if demandChanged { reconcileDemand() } else { publishFix(fix) }
        case .noFix(let reason):
            if sourceHasFix { logger.info("location unavailable", metadata: ["reason": "\(reason)"]) }
            sourceHasFix = false
            for state in subscriptions.values
            where state.request.mode != .single && !state.paused && !state.resting && !state.reportedUnknown {
                state.reportedUnknown = true
                state.handler(.failed(.locationUnknown))
            }
        case .heading(let sample):
            // Headings reach heading subscribers only.
            deliverHeading(sample)
        case .beacon(let sighting):
            // Beacon sightings reach beacon subscribers only.
            observeBeacon(sighting)
        case .finished:
            guard let source else { return }
            logger.info("source finished", metadata: ["source": "\(source.descriptor.name)"])
            finishedSources.insert(ObjectIdentifier(source))
            for state in subscriptions.values { state.handler(.sourceFinished) }
            reconcileDemand()
        }
    }

    /// Returns true when the subscriber stopped demanding fixes (completed or paused). `fixes` is
    /// `[fix]` and `stillFor` the device's stillness at the fix: the same for every subscriber.
    private func offer(_ fix: Fix, _ fixes: [Fix], stillFor: TimeInterval, to state: SubscriptionState, id: UInt64) -> Bool {
        state.reportedUnknown = false
        let firstSeen = state.firstSeen ?? fix.timestamp
        state.firstSeen = firstSeen
        let still = min(stillFor, fix.timestamp.timeIntervalSince(firstSeen))
        let isStill = still >= tuning.stationaryDelay(for: state.request.activity)

        switch state.request.mode {
        case .single:
            if meetsAccuracy(fix, state.request) {
                subscriptions[id] = nil
                state.isSubscribed = false
                state.timeout?.cancel()
                state.handler(.locations(fixes))
                state.handler(.completed)
                return true
            }
            if state.best.map({ fix.horizontalAccuracy <= $0.horizontalAccuracy }) ?? true { state.best = fix }
        case .continuous:
            if state.paused { return false }
            if state.request.pausesAutomatically && isStill {
                state.paused = true
                state.handler(.paused)
                return true
            }
            deliverIfDue(fix, fixes, to: state)
        case .live:
            if isStill != state.stationary {
                state.stationary = isStill
                state.handler(.stationary(isStill))
            }
            if !isStill { deliverIfDue(fix, fixes, to: state) }
        case .significantChange:
            // Only a fix that can tell 500 m apart counts; while resting, fixes that other demand
            // brings are taken for free.
            guard fix.horizontalAccuracy > 0, fix.horizontalAccuracy <= UpdateRequest.significantDistance else { return false }
            if isSignificant(fix, after: state.lastDelivered) {
                state.lastDelivered = fix
                state.handler(.locations(fixes))
            }
            if !state.resting {
                rest(id, state)
                return true
            }
        case .visits:
            // Fixes too coarse to place a stay are not evidence either way.
            guard fix.horizontalAccuracy > 0, fix.horizontalAccuracy <= UpdateRequest.visitAccuracy,
                  var detector = state.visits else { return false }
            let visits = detector.observe(fix)
            state.visits = detector
            for visit in visits { state.handler(.visit(visit)) }
            if !state.resting {
                rest(id, state)
                return true
            }
        }
        return false
    }

    /// The first fix, or one at least 500 m and five minutes from the last delivered.
    private func isSignificant(_ fix: Fix, after last: Fix?) -> Bool {
        guard let last else { return true }
        guard fix.timestamp.timeIntervalSince(last.timestamp) >= UpdateRequest.significantInterval
            || ClockStep.wentBack(since: last.timestamp, now: loop.now) else { return false }
        return Geodesic.wgs84.distance(
            latitude1: last.latitude, longitude1: last.longitude, latitude2: fix.latitude, longitude2: fix.longitude
        ) >= UpdateRequest.significantDistance
    }

    // MARK: Duty cycle (significant change and visits)

    /// The subscriber demands a source until a fix good enough arrives or the wake times out.
    private func beginWake(_ id: UInt64) {
        guard let state = subscriptions[id] else { return }
        state.resting = false
        state.wake?.cancel()
        state.wake = loop.schedule(after: tuning.significantWakeLimit) {
            guard let state = self.subscriptions[id], !state.resting else { return }
            self.rest(id, state)
            self.reconcileDemand()
        }
    }

    /// The subscriber stops demanding until its next wake: significant change's fixed interval,
    /// or as long as its visit detector can wait.
    private func rest(_ id: UInt64, _ state: SubscriptionState) {
        state.resting = true
        state.wake?.cancel()
        let interval = state.visits?.nextSampleDelay ?? tuning.significantWakeInterval
        state.wake = loop.schedule(after: interval) {
            self.beginWake(id)
            self.reconcileDemand()
        }
    }

    private func deliverIfDue(_ fix: Fix, _ fixes: [Fix], to state: SubscriptionState) {
        if let last = state.lastDelivered {
            guard !ClockStep.isStale(fix.timestamp, after: last.timestamp, now: loop.now) else { return }
            let filter = effectiveDistanceFilter(state.request)
            if filter > 0 {
                let moved = Geodesic.wgs84.distance(
                    latitude1: last.latitude, longitude1: last.longitude,
                    latitude2: fix.latitude, longitude2: fix.longitude)
                let improved = last.horizontalAccuracy > 0
                    && fix.horizontalAccuracy <= last.horizontalAccuracy * tuning.accuracyImprovementRatio
                guard moved >= filter || improved else { return }
            }
        }
        state.lastDelivered = fix
        state.handler(.locations(fixes))
    }

    /// The distance filter the engine applies: the app's own, widened for coarse accuracy requests.
    private func effectiveDistanceFilter(_ request: UpdateRequest) -> Double {
        let own = max(request.distanceFilter, 0)
        guard request.desiredAccuracy >= tuning.coarseAccuracyThreshold else { return own }
        return max(own, request.desiredAccuracy / 2)
    }

    private func meetsAccuracy(_ fix: Fix, _ request: UpdateRequest) -> Bool {
        request.requiredAccuracy == 0 || fix.horizontalAccuracy <= request.requiredAccuracy
    }

    private func singleTimedOut(_ id: UInt64) {
        guard let state = subscriptions.removeValue(forKey: id) else { return }
        state.isSubscribed = false
        if let best = state.best {
            state.handler(.locations([best]))
        } else {
            state.handler(.failed(.locationUnknown))
        }
        state.handler(.completed)
        reconcileDemand()
    }

    /// ``publish()`` for a fix that changed nothing but the fix itself (and the energy drawn so far):
    /// the subscriber counts stand, so they are not counted again.
    private func publishFix(_ fix: Fix) {
        let energy = energyReport()
        published.withLock { status in
            status.lastFix = fix
            status.energy = energy
        }
    }

    /// The meters' figures as of now. This runs for every fix: without a heading or beacon source
    /// ever started there is nothing to add.
    private func energyReport() -> EnergyReport {
        var report = energy.report(at: loop.now)
        if headingEnergy.report.sourceStarts > 0 { report = report.adding(headingEnergy.report(at: loop.now)) }
        if beaconEnergy.report.sourceStarts > 0 { report = report.adding(beaconEnergy.report(at: loop.now)) }
        return report
    }

    func publish() {
        let snapshot = EngineStatus(
            activeSource: active?.descriptor.name,
            subscriberCount: subscriptions.count,
            demandingCount: demand.count,
            lastFix: lastFix,
            energy: energyReport())
        published.withLock { $0 = snapshot }
    }
}

/// A subscriber's handle. Dropping it does not cancel: call `cancel()`.
public final class EngineSubscription: Sendable {
    public let id: UInt64
    private let engine: LocationEngine

    init(id: UInt64, engine: LocationEngine) {
        self.id = id
        self.engine = engine
    }

    /// Changes what this subscriber wants (e.g. a new distance filter).
    public func update(_ request: UpdateRequest) { engine.update(id, request: request) }
    /// Ends an automatic pause: the next fix (or the cached one) is a new initial event.
    public func resume() { engine.resume(id) }
    public func cancel() { engine.cancel(id) }
}

/// A snapshot of the engine for diagnostics.
public struct EngineStatus: Sendable, Equatable {
    public var activeSource: String?
    public var subscriberCount = 0
    /// Subscribers that currently need a source (paused ones do not).
    public var demandingCount = 0
    public var lastFix: Fix?
    public var energy = EnergyReport()
}

/// A class, changed in place: every fix visits every subscriber, and copying the state out of the
/// dictionary and back (handler, timeout, two fixes) cost more than the decision it made.
///
/// It keeps its share of the engine's demand itself: whatever changes its request, pause, rest or
/// membership of the engine's table updates the ledger, so no path can forget to.
private final class SubscriptionState {
    var request: UpdateRequest { didSet { recountDemand() } }
    let account: String
    let handler: @Sendable (StreamEvent) -> Void
    var lastDelivered: Fix?
    var firstSeen: Date?
    var paused = false { didSet { recountDemand() } }
    var stationary = false
    var reportedUnknown = false
    var best: Fix?
    var timeout: ScheduledWork?
    /// Significant change and visits: resting between wakes (no demand), and the next change of that.
    var resting = false { didSet { recountDemand() } }
    var wake: ScheduledWork?
    /// Visits: the subscriber's own detector.
    var visits: VisitDetector?
    /// In the engine's table of subscriptions (only then does it count).
    var isSubscribed = false { didSet { recountDemand() } }
    private unowned let demand: DemandLedger
    private var share: DemandLedger.Share?

    init(request: UpdateRequest, account: String, demand: DemandLedger, handler: @escaping @Sendable (StreamEvent) -> Void) {
        self.request = request
        self.account = account
        self.demand = demand
        self.handler = handler
    }

    private func recountDemand() {
        let now = isSubscribed && !paused && !resting
            ? DemandLedger.Share(service: request.mode.serviceName, account: account, requiredAccuracy: request.requiredAccuracy)
            : nil
        guard now != share else { return }
        if let share { demand.remove(share) }
        if let now { demand.add(now) }
        share = now
    }
}

extension UpdateRequest.Mode {
    /// The Core Location service a mode is, as energy reports name it.
    public var serviceName: String {
        switch self {
        case .continuous: "standard"
        case .single: "single"
        case .live: "live"
        case .significantChange: "significant-change"
        case .visits: "visits"
        }
    }
}
