import Foundation
import LocationCore
import LocationEngine
import LocationGeofencing
import LocationPersistence
import LocationProtocol
import Logging

/// Every app's fences in one service: definitions, states, undelivered events, and the engine
/// subscription that watches them. Loop-confined (the engine's loop), like the service.
///
/// An app's fences are watched while it may receive their events: full accuracy, location
/// services on, and Always — or When In Use while one of its processes is connected. Fences of
/// other apps are kept (and persisted) but not watched; when they are watched again, only a state
/// that really differs from the last one produces an event.
///
/// `@unchecked Sendable`: the engine calls back on its loop, where all this state lives.
final class FenceKeeper: @unchecked Sendable {
    struct Address: Hashable {
        var app: String
        var group: FenceGroup
        var identifier: String
    }

    /// Sends a fence update to one connected client.
    typealias Send = (_ client: UInt64, _ group: FenceGroup, _ update: FenceUpdate) -> Void

    private let engine: LocationEngine
    private let storage: any FenceStorage
    private let limits: FenceLimits
    private let logger: Logger
    private let send: Send
    private let publishRegions: (_ app: String, _ records: [FenceRecord]) -> Void
    private var now: Date { engine.loop.now }

    private var appStates: [String: AppState] = [:]
    private var watcher = FenceWatcher()
    /// Beacon fences, watched through one engine beacon subscription for every app's.
    private var beaconWatcher = BeaconFenceWatcher()
    private var beaconSubscription: EngineBeaconSubscription?
    private var subscribedConstraints: [BeaconConstraint] = []
    private var subscription: EngineSubscription?
    private var subscribedAccuracy: Double?
    /// Set when a subscription starts: its first delivery may be the engine's cached fix (after a
    /// restart, the last location of the previous run), and one older than the states it would
    /// judge must not move them back in time.
    private var staleBefore: Date?
    /// Apps whose file must be written before the events of this turn go out.
    private var dirty: Set<String> = []

    /// - Parameter publishRegions: receives an app's monitored regions after each change (for
    ///   `monitoredRegions`, which answers without waiting for the loop).
    init(
        engine: LocationEngine, storage: any FenceStorage, limits: FenceLimits, logger: Logger,
        publishRegions: @escaping (_ app: String, _ records: [FenceRecord]) -> Void, send: @escaping Send
    ) {
        self.engine = engine
        self.storage = storage
        self.limits = limits
        self.logger = logger
        self.publishRegions = publishRegions
        self.send = send
        for (app, fences) in storage.loadEveryApp(logger: logger) {
            let state = AppState()
            for (group, stored) in fences.groups {
                state.groups[group] = GroupState(stored)
            }
            if engine.hasBeaconSources { reviveUnsupportedBeacons(of: state) }
            appStates[app] = state
            publishRegions(app, state.groups[.regions]?.orderedRecords ?? [])
        }
    }

    /// Apps with fences or connections.
    var apps: [String] { Array(appStates.keys) }

    /// Beacon conditions kept unmonitored because no beacon source existed start unknown now that
    /// one does, as long as the app stays within its limit (the others stay unmonitored).
    private func reviveUnsupportedBeacons(of state: AppState) {
        var monitored = state.groups.values.reduce(0) { $0 + $1.records.values.filter { $0.lastEvent.state != .unmonitored }.count }
        for group in state.groups.keys.sorted() {
            guard let groupState = state.groups[group] else { continue }
            for identifier in groupState.order where monitored < limits.fencesPerApp {
                guard let record = groupState.records[identifier], case .beacon = record.definition.condition,
                      record.lastEvent.state == .unmonitored, record.lastEvent.issue == .unsupported else { continue }
                groupState.records[identifier]?.lastEvent = FenceEvent(identifier: identifier, state: .unknown, date: now)
                monitored += 1
            }
        }
    }

    // MARK: Clients and authorization

    /// The app's authorization or connections changed: watch or stop watching its fences.
    func update(app: String, authorization: EffectiveAuthorization, running: Bool) {
        let state = appState(app)
        let wasWatched = state.isWatched
        state.authorization = authorization
        state.running = running
        let issue = Self.issue(authorization)
        let issueChanged = issue != state.issue
        state.issue = issue
        if state.isWatched != wasWatched {
            for (group, groupState) in state.groups {
                for identifier in groupState.order { place(Address(app: app, group: group, identifier: identifier)) }
            }
            reconcileDemand()
        }
        // Monitors learn why they stopped (or that they work again); regions learn it through
        // the authorization change itself, as on Apple's platforms.
        if issueChanged, running {
            var changed: [(FenceGroup, FenceEvent)] = []
            for (group, groupState) in state.groups where group != .regions {
                for identifier in groupState.order {
                    guard let record = groupState.records[identifier], record.lastEvent.state != .unmonitored else { continue }
                    var event = record.lastEvent
                    event.issue = issue
                    event.date = now
                    groupState.records[identifier]?.lastEvent = event
                    changed.append((group, event))
                }
            }
            if !changed.isEmpty { markDirty(app) }
            flush()
            for (group, event) in changed { deliverLive(app: app, group: group, .changed(event)) }
        }
        if !state.running, !state.isWatched, state.groups.isEmpty { appStates[app] = nil }
    }

    func open(_ group: FenceGroup, app: String, client: UInt64) {
        let state = appState(app)
        state.openers[group, default: []].insert(client)
        let groupState = state.groups[group]
        send(client, group, .snapshot(groupState?.snapshot(for: group) ?? []))
        guard let groupState, !groupState.pending.isEmpty else { return }
        let pending = groupState.pending
        groupState.pending.removeAll()
        markDirty(app)
        flush()
        for event in pending { send(client, group, .changed(event)) }
    }

    func close(_ group: FenceGroup, app: String, client: UInt64) {
        appStates[app]?.openers[group]?.remove(client)
    }

    func disconnected(app: String, client: UInt64) {
        guard let state = appStates[app] else { return }
        for group in state.openers.keys { state.openers[group]?.remove(client) }
    }

    // MARK: Requests

    func add(_ definition: FenceDefinition, to group: FenceGroup, app: String, client: UInt64) {
        let state = appState(app)
        let address = Address(app: app, group: group, identifier: definition.identifier)
        if let problem = validate(definition, group: group, state: state) {
            // A region that cannot be watched is refused, and so is a condition that is not a
            // place; a monitor keeps any other condition, unmonitored, so that the app sees why in
            // its record and events.
            guard group != .regions, !Self.isMalformed(definition, in: group) else {
                return send(client, group, .failed(identifier: definition.identifier, problem))
            }
            let record = FenceRecord(definition: definition, lastEvent: FenceEvent(
                identifier: definition.identifier, state: .unmonitored, date: now, issue: problem))
            store(record, at: address)
            place(address)
            reconcileDemand()
            flush()
            return announce(record, in: group, app: app, client: client)
        }
        // Apps add their fences again at every launch: the same fence keeps its state (and the
        // next event is a real change), where a different one starts afresh.
        if let existing = state.groups[group]?.records[definition.identifier], existing.definition == definition,
           existing.lastEvent.state != .unmonitored {
            announce(existing, in: group, app: app, client: client)
            if group == .regions, let issue = state.issue {
                send(client, group, .failed(identifier: definition.identifier, issue))
            }
            return
        }
        let record = FenceRecord(definition: definition, lastEvent: FenceEvent(
            identifier: definition.identifier, state: definition.assumedState, date: now, issue: state.issue))
        store(record, at: address)
        place(address)
        reconcileDemand()
        let saved = flush()
        announce(record, in: group, app: app, client: client)
        if !saved { send(client, group, .failed(identifier: definition.identifier, .persistenceUnavailable)) }
        if group == .regions, let issue = state.issue {
            send(client, group, .failed(identifier: definition.identifier, issue))
        }
        evaluateLastFix(for: address)
    }

    /// Tells every client with the group open (and the one that added it) about a new fence.
    private func announce(_ record: FenceRecord, in group: FenceGroup, app: String, client: UInt64) {
        var recipients = appStates[app]?.openers[group] ?? []
        recipients.insert(client)
        for recipient in recipients.sorted() { send(recipient, group, .started(record)) }
    }

    func remove(_ identifier: String, from group: FenceGroup, app: String) {
        guard let state = appStates[app], let groupState = state.groups[group],
              groupState.records.removeValue(forKey: identifier) != nil else { return }
        groupState.order.removeAll { $0 == identifier }
        watcher.remove(Address(app: app, group: group, identifier: identifier))
        beaconWatcher.remove(Address(app: app, group: group, identifier: identifier))
        if groupState.records.isEmpty && groupState.pending.isEmpty { state.groups[group] = nil }
        markDirty(app)
        flush()
        reconcileDemand()
        deliverLive(app: app, group: group, .removed(identifier: identifier))
    }

    /// `requestState(for:)`: the state now, to the asking client; nothing when it is not known yet
    /// (the first determination arrives as a change, which the client reports the same way).
    func requestState(_ identifier: String, in group: FenceGroup, app: String, client: UInt64) {
        guard let record = appStates[app]?.groups[group]?.records[identifier] else { return }
        guard record.lastEvent.state != .unknown || appStates[app]?.isWatched != true else { return }
        send(client, group, .determined(record.lastEvent))
    }

    /// Every app's fences, for `locationctl regions`.
    func listing() -> [AppFences] {
        appStates.keys.sorted().compactMap { app in
            let state = appStates[app]!
            guard !state.groups.isEmpty else { return nil }
            return AppFences(app: app, groups: state.groups.keys.sorted().map { group in
                let groupState = state.groups[group]!
                return GroupFences(group: group, records: groupState.orderedRecords, pendingEvents: groupState.pending.count)
            })
        }
    }

    // MARK: Evaluation

    private func evaluate(_ fix: Fix) {
        // Dated when the boundary was crossed, not when a fix was far enough past it to tell.
        commit(watcher.evaluate(fix).map {
            ($0.address, $0.state, min($0.crossedAt ?? fix.timestamp, fix.timestamp))
        })
        adjustDemand(near: fix)
    }

    /// A ranging scan of the beacon fences' subscription.
    private func evaluateBeacons(_ event: BeaconScanEvent) {
        switch event {
        case .ranged(let beacons):
            commit(beaconWatcher.evaluate(beacons, now: now).map { ($0.address, $0.state, $0.date) })
        case .unavailable(let reason):
            logger.debug("beacon fences not watched: scanning unavailable", metadata: ["reason": "\(reason)"])
            beaconWatcher.scanningInterrupted()
        }
    }

    /// Records new states, saves them, then delivers them (or keeps them for the app's next launch).
    private func commit(_ transitions: [(address: Address, state: FenceState, date: Date)]) {
        var changed: [(address: Address, previous: FenceState, event: FenceEvent)] = []
        for transition in transitions {
            let address = transition.address
            guard let state = appStates[address.app], let groupState = state.groups[address.group],
                  var record = groupState.records[address.identifier] else { continue }
            let previous = record.lastEvent.state
            record.lastEvent = FenceEvent(identifier: address.identifier, state: transition.state, date: transition.date)
            groupState.records[address.identifier] = record
            markDirty(address.app)
            changed.append((address, previous, record.lastEvent))
        }
        guard !changed.isEmpty else { return }
        // Saved before anything is delivered: a crash after this loses no event.
        for change in changed where !isOpen(change.address) { queue(change.event, previous: change.previous, at: change.address) }
        flush()
        for change in changed where isOpen(change.address) {
            deliverLive(app: change.address.app, group: change.address.group, .changed(change.event))
        }
    }

    /// A new fence learns its state from the last fix at once, instead of at the next one.
    private func evaluateLastFix(for address: Address) {
        guard watcher.contains(address), let fix = engine.status.lastFix,
              now.timeIntervalSince(fix.timestamp) < Self.lastFixFreshness else { return }
        evaluate(fix)
    }

    /// How old the engine's last fix may be to decide a new fence's state without waiting.
    static let lastFixFreshness: TimeInterval = 10
    /// Whom the engine books the energy of region monitoring to: one subscription serves every app's
    /// fences, so no single app.
    static let energyAccount = "region monitoring"

    /// Keeps an event for the app's next launch. Regions keep only crossings they notify of (the
    /// others would not have launched the app), so each kept event is an entry or an exit.
    private func queue(_ event: FenceEvent, previous: FenceState, at address: Address) {
        guard let state = appStates[address.app], state.authorization.status == .authorizedAlways,
              let groupState = state.groups[address.group] else { return }
        if address.group == .regions, let definition = groupState.records[address.identifier]?.definition {
            guard previous == .inside || previous == .outside else { return }
            if event.state == .inside && !definition.notifyOnEntry { return }
            if event.state == .outside && !definition.notifyOnExit { return }
        }
        groupState.pending.append(event)
        if groupState.pending.count > limits.pendingEvents {
            groupState.pending.removeFirst(groupState.pending.count - limits.pendingEvents)
            logger.warning("too many undelivered fence events; dropping the oldest", metadata: [
                "app": "\(address.app)", "kept": "\(limits.pendingEvents)",
            ])
        }
        markDirty(address.app)
    }

    private func isOpen(_ address: Address) -> Bool {
        !(appStates[address.app]?.openers[address.group]?.isEmpty ?? true)
    }

    private func deliverLive(app: String, group: FenceGroup, _ update: FenceUpdate) {
        guard let openers = appStates[app]?.openers[group] else { return }
        for client in openers.sorted() { send(client, group, update) }
    }

    // MARK: Demand

    private func reconcileDemand() {
        reconcileBeaconDemand()
        guard !watcher.isEmpty else {
            subscription?.cancel()
            subscription = nil
            subscribedAccuracy = nil
            return
        }
        guard subscription == nil else { return }
        let accuracy = watcher.demand.precise
        subscribedAccuracy = accuracy
        staleBefore = newestMeasuredDate()
        subscription = engine.subscribe(Self.request(accuracy), account: Self.energyAccount) { [weak self] event in
            guard let self, case .locations(let fixes) = event else { return }
            let staleBefore = self.staleBefore
            self.staleBefore = nil
            for fix in fixes where staleBefore.map({ fix.timestamp >= $0 }) ?? true { self.evaluate(fix) }
        }
    }

    /// One beacon subscription for every watched beacon fence, scanning for their constraints;
    /// none while no beacon fence is watched, so the scanner can stop.
    private func reconcileBeaconDemand() {
        let constraints = beaconWatcher.constraints
        guard !constraints.isEmpty else {
            beaconSubscription?.cancel()
            beaconSubscription = nil
            subscribedConstraints = []
            return
        }
        guard constraints != subscribedConstraints else { return }
        subscribedConstraints = constraints
        if let beaconSubscription { return beaconSubscription.update(constraints) }
        beaconSubscription = engine.subscribeBeacons(constraints, account: Self.energyAccount) { [weak self] event in
            self?.evaluateBeacons(event)
        }
    }

    /// Asks for the accuracy that can still decide the nearest boundary: coarse far from every
    /// fence, precise near one.
    private func adjustDemand(near fix: Fix) {
        guard let subscription else { return }
        let accuracy = watcher.requiredAccuracy(near: fix.latitude, fix.longitude)
        guard accuracy != subscribedAccuracy else { return }
        subscribedAccuracy = accuracy
        subscription.update(Self.request(accuracy))
    }

    /// The newest date a fix decided any fence's state (nil when none has been measured).
    private func newestMeasuredDate() -> Date? {
        appStates.values.flatMap(\.groups.values).flatMap(\.records.values)
            .filter { ($0.lastEvent.state == .inside || $0.lastEvent.state == .outside) && $0.lastEvent.issue == nil }
            .map(\.lastEvent.date).max()
    }

    private static func request(_ accuracy: Double) -> UpdateRequest {
        UpdateRequest(mode: .continuous, desiredAccuracy: accuracy, distanceFilter: -1, pausesAutomatically: false)
    }

    // MARK: Bookkeeping

    private func appState(_ app: String) -> AppState {
        if let state = appStates[app] { return state }
        let state = AppState()
        appStates[app] = state
        return state
    }

    private func validate(_ definition: FenceDefinition, group: FenceGroup, state: AppState) -> FenceIssue? {
        if Self.isMalformed(definition, in: group) { return .invalidRegion }
        switch definition.condition {
        case let .circle(_, _, radius):
            guard radius <= limits.maximumRadius else { return .invalidRegion }
        case .beacon:
            // Apple's answer on a device without Bluetooth LE.
            guard engine.hasBeaconSources else { return .unsupported }
        }
        let replacing = state.groups[group]?.records[definition.identifier] != nil
        let count = state.groups.values.reduce(0) { $0 + $1.records.values.filter { $0.lastEvent.state != .unmonitored }.count }
        if !replacing, count >= limits.fencesPerApp { return .limitExceeded }
        return nil
    }

    private func store(_ record: FenceRecord, at address: Address) {
        let state = appState(address.app)
        let groupState = state.groups[address.group] ?? GroupState()
        state.groups[address.group] = groupState
        if groupState.records.updateValue(record, forKey: address.identifier) == nil {
            groupState.order.append(address.identifier)
        }
        markDirty(address.app)
    }

    /// Puts a fence into its watcher, or takes it out, according to its app's state.
    private func place(_ address: Address) {
        guard let state = appStates[address.app], let record = state.groups[address.group]?.records[address.identifier],
              record.lastEvent.state != .unmonitored, state.isWatched else {
            watcher.remove(address)
            beaconWatcher.remove(address)
            return
        }
        switch record.definition.condition {
        case let .circle(latitude, longitude, radius):
            beaconWatcher.remove(address)
            watcher.insert(address, latitude: latitude, longitude: longitude, radius: radius, state: record.lastEvent.state)
        case let .beacon(uuid, major, minor):
            watcher.remove(address)
            beaconWatcher.insert(address, constraint: BeaconConstraint(uuid: uuid, major: major, minor: minor),
                                 state: record.lastEvent.state, now: now)
        }
    }

    private func markDirty(_ app: String) { dirty.insert(app) }

    /// Writes every changed app; false when one could not be written.
    @discardableResult
    private func flush() -> Bool {
        var ok = true
        for app in dirty.sorted() {
            publishRegions(app, appStates[app]?.groups[.regions]?.orderedRecords ?? [])
            let fences = StoredFences(groups: appStates[app]?.groups.mapValues(\.stored) ?? [:])
            do {
                try storage.save(fences, appID: app)
            } catch {
                ok = false
                logger.error("could not save fences", metadata: ["app": "\(app)", "error": "\(error)"])
            }
        }
        dirty.removeAll()
        return ok
    }

    /// The longest identifier or monitor name kept, in bytes of UTF-8 (what the fence file holds).
    static let maximumNameBytes = 1024

    /// A fence that could never be watched or kept: a circle that is no place on Earth (a centre
    /// out of range, a radius that is not a positive number), or an empty or overlong name.
    private static func isMalformed(_ definition: FenceDefinition, in group: FenceGroup) -> Bool {
        let identifierBytes = definition.identifier.utf8.count
        guard identifierBytes > 0, identifierBytes <= maximumNameBytes else { return true }
        if case .monitor(let name) = group, name.utf8.count > maximumNameBytes { return true }
        guard case let .circle(latitude, longitude, radius) = definition.condition else { return false }
        return !(latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
                 && radius.isFinite && radius > 0)
    }

    private static func issue(_ authorization: EffectiveAuthorization) -> FenceIssue? {
        if !authorization.servicesEnabled { return .denied }
        switch authorization.status {
        case .denied, .restricted: return .denied
        case .notDetermined: return nil
        case .authorizedAlways, .authorizedWhenInUse:
            return authorization.accuracy == .reducedAccuracy ? .accuracyLimited : nil
        }
    }
}

private final class AppState {
    var groups: [FenceGroup: GroupState] = [:]
    var openers: [FenceGroup: Set<UInt64>] = [:]
    var authorization = EffectiveAuthorization.notDetermined
    var running = false
    var issue: FenceIssue?

    var isWatched: Bool {
        authorization.servicesEnabled && authorization.accuracy == .fullAccuracy
            && (authorization.status == .authorizedAlways || (authorization.status == .authorizedWhenInUse && running))
    }
}

private final class GroupState {
    var records: [String: FenceRecord] = [:]
    var order: [String] = []
    var pending: [FenceEvent] = []

    init() {}

    init(_ stored: StoredFences.Group) {
        for record in stored.records where records[record.definition.identifier] == nil {
            records[record.definition.identifier] = record
            order.append(record.definition.identifier)
        }
        pending = stored.pendingEvents
    }

    var orderedRecords: [FenceRecord] { order.compactMap { records[$0] } }

    /// The records as a client opening the group must first see them. For regions, a fence with
    /// kept crossings shows the state before the first of them, so that the client, replaying
    /// them, reports each as the entry or exit it was.
    func snapshot(for group: FenceGroup) -> [FenceRecord] {
        guard group == .regions, !pending.isEmpty else { return orderedRecords }
        var first: [String: FenceEvent] = [:]
        for event in pending where first[event.identifier] == nil { first[event.identifier] = event }
        return orderedRecords.map { record in
            guard let crossing = first[record.definition.identifier] else { return record }
            var before = record
            before.lastEvent.state = crossing.state == .inside ? .outside : .inside
            return before
        }
    }
    var stored: StoredFences.Group { StoredFences.Group(records: orderedRecords, pendingEvents: pending) }
}
