import Foundation
import LocationCore
import LocationProtocol
import LocationWire
import Logging

/// One manager's (or one `liveUpdates()` iteration's) share of the process's connection to
/// `locationd`: the socket transport behind `ClientConnection`.
///
/// Every connection of a process is a set of streams on the same ``DaemonLink``, so the daemon
/// identifies the process once. Stream ids are this connection's own (the link maps them); the
/// app's authorization events reach every connection. Events are delivered in order, one at a
/// time, and none after ``close()`` returns.
public final class DaemonConnection: ClientConnection {
    /// The authorization the link knew when this connection was made; nil while the link has not
    /// heard from the daemon yet (its first event is then the authorization).
    public let initialAuthorization: EffectiveAuthorization?
    private let link: DaemonLink
    private let id: DaemonLink.ConnectionID

    init(link: DaemonLink, id: DaemonLink.ConnectionID, initialAuthorization: EffectiveAuthorization?) {
        self.link = link
        self.id = id
        self.initialAuthorization = initialAuthorization
    }

    deinit { link.close(id) }

    public func send(_ request: ClientRequest) { link.send(request, from: id) }

    /// Stops this connection's streams. Safe to call twice; nothing is delivered after it returns.
    public func close() { link.close(id) }
}

/// A process's one connection to `locationd`: a reconnecting socket shared by all its
/// ``DaemonConnection``s, with the state that survives a daemon restart (``LinkState``).
///
/// Confined to its loop; the socket closes when the last connection closes, and opens again with
/// the next.
final class DaemonLink: @unchecked Sendable {
    typealias ConnectionID = UInt64

    /// What one ``DaemonConnection`` holds on the link.
    private final class Member: Sendable {
        let gate: DeliveryGate<ServiceEvent>
        /// The connection's stream ids and the link's, both ways (confined to the loop).
        nonisolated(unsafe) var streams: [StreamID: StreamID] = [:]
        /// The link had no authorization when the connection was made: its first event must be one.
        nonisolated(unsafe) var awaitsAuthorization: Bool
        /// The fence groups this connection has open.
        nonisolated(unsafe) var fenceGroups: Set<FenceGroup> = []
        /// The connection's temporary full accuracy request ids and the link's.
        nonisolated(unsafe) var accuracyRequests: [AccuracyRequestID: AccuracyRequestID] = [:]

        init(events: @escaping @Sendable (ServiceEvent) -> Void, awaitsAuthorization: Bool) {
            gate = DeliveryGate(events)
            self.awaitsAuthorization = awaitsAuthorization
        }
    }

    let socketPath: String
    private let loop: any EngineLoop
    private let backoff: Backoff
    private let handshakeTimeout: TimeInterval
    private let logger: Logger
    /// What the link has settled about the app's authorization, readable from any thread.
    private let known = Locked<EffectiveAuthorization?>(nil)
    private let knownCapabilities = Locked<ServiceCapabilities?>(nil)
    private let lastID = Locked<ConnectionID>(0)
    /// Every open member's gate, so that `close` can shut it from any thread.
    private let gates = Locked<[ConnectionID: DeliveryGate<ServiceEvent>]>([:])

    // Confined to `loop`.
    private var channel: ReconnectingChannel?
    private var state = LinkState()
    private var members: [ConnectionID: Member] = [:]
    /// Owner of each link stream id.
    private var owners: [StreamID: ConnectionID] = [:]
    private var lastStream: StreamID = 0
    /// Owner of each link temporary full accuracy request id.
    private var accuracyOwners: [AccuracyRequestID: ConnectionID] = [:]
    private var lastAccuracyRequest: AccuracyRequestID = 0
    /// Members waiting for a fence group's snapshot, and for a fence's state, in the order they asked
    /// (the daemon answers each request of the link in order).
    private var snapshotWaiters: [FenceGroup: [ConnectionID]] = [:]
    private var stateWaiters: [FenceGroup: [String: [ConnectionID]]] = [:]

    /// - Parameter handshakeTimeout: how long members wait for the daemon's first answer before
    ///   they start as not determined (the link keeps trying).
    init(socketPath: String, loop: any EngineLoop, backoff: Backoff, handshakeTimeout: TimeInterval, logger: Logger) {
        self.socketPath = socketPath
        self.loop = loop
        self.backoff = backoff
        self.handshakeTimeout = handshakeTimeout
        self.logger = logger
    }

    /// The daemon's word on the app's authorization while the link is welcomed (or was: the last
    /// one), nil before any answer.
    var authorization: EffectiveAuthorization? { known.withLock { $0 } }

    /// What the daemon's sources can measure, from its last welcome; nil before any.
    var capabilities: ServiceCapabilities? { knownCapabilities.withLock { $0 } }

    /// A new member; connects the socket if it is the first. Never waits.
    func open(events: @escaping @Sendable (ServiceEvent) -> Void) -> DaemonConnection {
        let id = lastID.withLock { last in
            last += 1
            return last
        }
        let initial = authorization
        let member = Member(events: events, awaitsAuthorization: initial == nil)
        gates.withLock { $0[id] = member.gate }
        loop.execute {
            self.members[id] = member
            if member.awaitsAuthorization, let settled = self.state.given {
                // Settled between `open` and now.
                member.awaitsAuthorization = false
                member.gate.deliver(.authorizationChanged(settled))
            }
            self.connectIfNeeded()
        }
        return DaemonConnection(link: self, id: id, initialAuthorization: initial)
    }

    func send(_ request: ClientRequest, from id: ConnectionID) {
        loop.execute {
            guard let member = self.members[id], let request = self.linkRequest(request, of: member, id: id) else { return }
            if let now = self.state.appSent(request) { self.channel?.send(.request(now)) }
        }
    }

    /// Stops the member's streams. Its deliveries end before this returns (the gate waits for one
    /// in progress), whatever thread calls it.
    func close(_ id: ConnectionID) {
        gates.withLock { $0.removeValue(forKey: id) }?.close()
        loop.execute {
            guard let member = self.members.removeValue(forKey: id) else { return }
            guard !self.members.isEmpty else { return self.disconnect() }
            for linkStream in member.streams.values.sorted() {
                self.owners[linkStream] = nil
                if let stop = self.state.appSent(self.state.stopRequest(for: linkStream)) { self.channel?.send(.request(stop)) }
            }
            for group in member.fenceGroups.sorted() {
                if let close = self.linkRequest(.closeFences(group), of: member, id: id), let now = self.state.appSent(close) {
                    self.channel?.send(.request(now))
                }
            }
        }
    }

    // MARK: In the loop

    /// The request with the member's stream id replaced by the link's (a new one for a new stream).
    private func linkRequest(_ request: ClientRequest, of member: Member, id: ConnectionID) -> ClientRequest? {
        func existing(_ stream: StreamID) -> StreamID? { member.streams[stream] }
        /// A new link stream for the member's `stream` (replacing the one it had).
        func opened(_ stream: StreamID) -> StreamID {
            if let old = member.streams[stream] { owners[old] = nil }
            lastStream &+= 1
            member.streams[stream] = lastStream
            owners[lastStream] = id
            return lastStream
        }
        /// The link stream of the member's `stream`, which ends; nil when it had none.
        func closed(_ stream: StreamID) -> StreamID? {
            guard let linkStream = member.streams.removeValue(forKey: stream) else { return nil }
            owners[linkStream] = nil
            return linkStream
        }
        switch request {
        case .requestAuthorization:
            return request
        case let .startUpdates(stream, update):
            return .startUpdates(opened(stream), update)
        case let .changeUpdates(stream, update):
            return existing(stream).map { .changeUpdates($0, update) }
        case .resumeUpdates(let stream):
            return existing(stream).map { .resumeUpdates($0) }
        case .stopUpdates(let stream):
            return closed(stream).map { .stopUpdates($0) }
        case let .startHeading(stream, heading):
            // A running stream started again (a new headingFilter) keeps its link stream: the daemon
            // replaces that stream's request, rather than keep the old one running beside a new one.
            return .startHeading(existing(stream) ?? opened(stream), heading)
        case .stopHeading(let stream):
            return closed(stream).map { .stopHeading($0) }
        case let .startRanging(stream, constraint):
            return .startRanging(existing(stream) ?? opened(stream), constraint)
        case .stopRanging(let stream):
            return closed(stream).map { .stopRanging($0) }
        case .openFences(let group):
            // Each opening gets its own snapshot; the daemon keeps one opening per connection.
            member.fenceGroups.insert(group)
            snapshotWaiters[group, default: []].append(id)
            return request
        case .closeFences(let group):
            guard member.fenceGroups.remove(group) != nil else { return nil }
            snapshotWaiters[group]?.removeAll { $0 == id }
            let stillOpen = members.values.contains { $0 !== member && $0.fenceGroups.contains(group) }
            return stillOpen ? nil : request
        case let .requestFenceState(group, identifier):
            stateWaiters[group, default: [:]][identifier, default: []].append(id)
            return request
        case .addFence, .removeFence:
            return request
        case .startVisits, .stopVisits:
            // The app's, whichever member says it.
            return request
        case let .requestTemporaryFullAccuracy(own, purposeKey):
            lastAccuracyRequest &+= 1
            member.accuracyRequests[own] = lastAccuracyRequest
            accuracyOwners[lastAccuracyRequest] = id
            return .requestTemporaryFullAccuracy(lastAccuracyRequest, purposeKey: purposeKey)
        case .endTemporaryFullAccuracy:
            return request
        }
    }

    private func connectIfNeeded() {
        guard channel == nil else { return }
        let channel = ReconnectingChannel(
            socketPath: socketPath, loop: loop, backoff: backoff, logger: logger,
            handlers: .init(
                welcomed: { [weak self] _, authorization, capabilities in self?.welcomed(authorization, capabilities) },
                received: { [weak self] message in self?.received(message) },
                down: { [weak self] wasWelcomed in self?.down(wasWelcomed: wasWelcomed) }))
        self.channel = channel
        channel.start()
        // A daemon that accepts but never answers must not leave the app without an authorization.
        loop.schedule(after: handshakeTimeout) { [weak self, weak channel] in
            guard let self, let channel, channel === self.channel, self.state.given == nil else { return }
            self.logger.notice("locationd did not answer in time; starting as not determined", metadata: [
                "timeout": "\(self.handshakeTimeout) s",
            ])
            self.settleAsNotDetermined()
        }
    }

    private func disconnect() {
        channel?.close()
        channel = nil
        state = LinkState()
        owners.removeAll()
        accuracyOwners.removeAll()
        known.withLock { $0 = nil }
        knownCapabilities.withLock { $0 = nil }
    }

    private func welcomed(_ authorization: EffectiveAuthorization, _ capabilities: ServiceCapabilities) {
        let (events, resend) = state.welcomed(authorization)
        known.withLock { $0 = authorization }
        knownCapabilities.withLock { $0 = capabilities }
        settleAwaitingMembers()
        for event in events { deliver(event) }
        for request in resend { channel?.send(.request(request)) }
        if !resend.isEmpty {
            logger.debug("re-sent the app's active requests to locationd", metadata: ["count": "\(resend.count)"])
        }
    }

    private func received(_ message: DaemonMessage) {
        switch message {
        case .event(let event):
            if case .authorizationChanged(let authorization) = event { known.withLock { $0 = authorization } }
            if let shown = state.received(event) { deliver(shown) }
        case .refused(let reason):
            logger.error("locationd refused this app", metadata: ["reason": "\(reason)"])
        default:
            logger.debug("ignoring a message meant for another kind of client", metadata: ["message": "\(message)"])
        }
    }

    /// Nothing is delivered while disconnected (the loss is logged by the channel); the app's
    /// requests wait for the next welcome. A first attempt that fails settles the members that wait
    /// for an authorization: the app starts as not determined.
    private func down(wasWelcomed: Bool) {
        state.disconnected()
        if state.given == nil { settleAsNotDetermined() }
    }

    private func settleAsNotDetermined() {
        _ = state.reportInitial()
        known.withLock { $0 = state.given }
        settleAwaitingMembers()
    }

    private func settleAwaitingMembers() {
        guard state.given != nil || state.daemon != nil else { return }
        let given = state.reportInitial()
        for id in members.keys.sorted() {
            guard let member = members[id], member.awaitsAuthorization else { continue }
            member.awaitsAuthorization = false
            member.gate.deliver(.authorizationChanged(given))
        }
    }

    /// Stream events go to the member that owns the stream, under its own id; the rest to every member.
    private func deliver(_ event: ServiceEvent) {
        switch event {
        case let .stream(linkStream, streamEvent):
            guard let owner = owners[linkStream], let member = members[owner],
                  let stream = member.streams.first(where: { $0.value == linkStream })?.key else { return }
            if case .completed = streamEvent {
                member.streams[stream] = nil
                owners[linkStream] = nil
            }
            member.gate.deliver(.stream(stream, streamEvent))
        case .authorizationChanged, .authorizationRequestInProgress, .visit:
            for id in members.keys.sorted() { members[id]?.gate.deliver(event) }
        case let .fences(group, update):
            deliverFences(group, update)
        case let .temporaryFullAccuracy(linkRequest, outcome):
            guard let owner = accuracyOwners.removeValue(forKey: linkRequest), let member = members[owner],
                  let own = member.accuracyRequests.first(where: { $0.value == linkRequest })?.key else { return }
            member.accuracyRequests[own] = nil
            member.gate.deliver(.temporaryFullAccuracy(own, outcome))
        }
    }

    /// A snapshot or a state answers the member that asked first; everything else goes to every
    /// member with the group open.
    private func deliverFences(_ group: FenceGroup, _ update: FenceUpdate) {
        switch update {
        case .snapshot:
            guard var waiting = snapshotWaiters[group], !waiting.isEmpty else { return }
            let id = waiting.removeFirst()
            snapshotWaiters[group] = waiting.isEmpty ? nil : waiting
            members[id]?.gate.deliver(.fences(group, update))
        case .determined(let event):
            guard var waiting = stateWaiters[group]?[event.identifier], !waiting.isEmpty else { return }
            let id = waiting.removeFirst()
            stateWaiters[group]?[event.identifier] = waiting.isEmpty ? nil : waiting
            members[id]?.gate.deliver(.fences(group, update))
        case .started, .failed, .changed, .removed:
            for id in members.keys.sorted() where members[id]?.fenceGroups.contains(group) == true {
                members[id]?.gate.deliver(.fences(group, update))
            }
        }
    }
}
