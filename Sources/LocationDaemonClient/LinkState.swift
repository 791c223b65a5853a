import Foundation
import LocationCore
import LocationProtocol

/// What a process's link to `locationd` has asked for and been told (every stream of every
/// connection, under the link's stream ids), kept across reconnections, so a restarted daemon can be
/// brought up to date and the app sees neither duplicates nor phantoms.
///
/// A pure value: the owner feeds it the app's requests and the daemon's messages and performs what
/// it returns (events to deliver, requests to send).
struct LinkState {
    private struct Stream {
        var request: UpdateRequest
        /// The newest fix delivered on this stream: a restarted daemon may replay its cached last fix.
        var lastFix: Date?
    }

    private var streams: [StreamID: Stream] = [:]
    /// Heading streams, under the link's stream ids (the same id space as `streams`).
    private var headings: [StreamID: HeadingRequest] = [:]
    /// Ranging streams and the constraint each ranges, under the link's stream ids (the same id space).
    private var rangings: [StreamID: BeaconConstraint] = [:]
    /// An authorization request not known to be settled, and whether a daemon has seen it.
    private var authorizationRequest: (level: AuthorizationLevel, sent: Bool)?
    /// The authorization the app was last given; nil until the link settled its initial one.
    private(set) var given: EffectiveAuthorization?
    /// The daemon's latest word on the current connection; nil while there is no welcomed connection.
    private(set) var daemon: EffectiveAuthorization?
    private var requestInProgress = false
    /// Fence groups some connection has open: opened again on a new connection.
    private var openGroups: Set<FenceGroup> = []
    /// Fence changes made while no daemon was welcomed, in order: sent after the next welcome.
    private var waitingFenceRequests: [ClientRequest] = []
    /// Temporary full accuracy requests without an outcome yet, by the link's request id: sent again
    /// after a new welcome, because the caller's completion must be called.
    private var accuracyRequests: [AccuracyRequestID: String] = [:]
    /// The app ended its temporary full accuracy while no daemon was welcomed.
    private var endTemporaryFullAccuracyWaiting = false
    /// The app's last word on visits (start or stop): said again to every new daemon connection,
    /// which may be a restarted daemon that kept no flag.
    private var visitRequest: ClientRequest?

    var isWelcomed: Bool { daemon != nil }

    /// The request that stops a link stream of whichever kind: `stopHeading` for a heading stream,
    /// `stopRanging` for a ranging stream, else `stopUpdates`.
    func stopRequest(for id: StreamID) -> ClientRequest {
        if headings[id] != nil { return .stopHeading(id) }
        if rangings[id] != nil { return .stopRanging(id) }
        return .stopUpdates(id)
    }

    /// The app's initial authorization: the daemon's answer if a welcome came, else
    /// `.notDetermined` (unreachable, refused or silent). Fixed at the first call.
    mutating func reportInitial() -> EffectiveAuthorization {
        if let given { return given }
        let initial = daemon ?? .notDetermined
        given = initial
        return initial
    }

    /// Records a request of the app; returns it when it should be sent now, nil when it waits for
    /// the next welcome (which re-sends whatever is still active).
    mutating func appSent(_ request: ClientRequest) -> ClientRequest? {
        switch request {
        case .requestAuthorization(let level):
            authorizationRequest = (level, isWelcomed)
        case let .startUpdates(id, update):
            streams[id] = Stream(request: update)
        case let .changeUpdates(id, update):
            guard streams[id] != nil else { return nil }
            streams[id]?.request = update
        case .resumeUpdates(let id):
            // A stream started anew after a welcome is not paused anyway.
            guard streams[id] != nil else { return nil }
        case .stopUpdates(let id):
            streams[id] = nil
        case .openFences(let group):
            openGroups.insert(group)
        case .closeFences(let group):
            openGroups.remove(group)
        case .addFence, .removeFence, .requestFenceState:
            guard isWelcomed else {
                waitingFenceRequests.append(request)
                return nil
            }
        case let .requestTemporaryFullAccuracy(id, purposeKey):
            accuracyRequests[id] = purposeKey
        case let .startHeading(id, request):
            headings[id] = request
        case .stopHeading(let id):
            headings[id] = nil
        case let .startRanging(id, constraint):
            rangings[id] = constraint
        case .stopRanging(let id):
            rangings[id] = nil
        case .endTemporaryFullAccuracy:
            // A restarted daemon still holds the grant in its store: it is ended after the welcome.
            guard isWelcomed else {
                endTemporaryFullAccuracyWaiting = true
                return nil
            }
        case .startVisits, .stopVisits:
            visitRequest = request
        }
        return isWelcomed ? request : nil
    }

    /// A welcome on a new connection: the events the app must see, and the requests to re-send.
    mutating func welcomed(_ authorization: EffectiveAuthorization) -> (events: [ServiceEvent], resend: [ClientRequest]) {
        daemon = authorization
        var events: [ServiceEvent] = []
        if let given, given != authorization {
            self.given = authorization
            events.append(.authorizationChanged(authorization))
        }
        var resend: [ClientRequest] = []
        if let pending = authorizationRequest, !pending.sent || authorization.status == .notDetermined {
            resend.append(.requestAuthorization(pending.level))
            authorizationRequest?.sent = true
        }
        settleAuthorizationRequest(authorization)
        for id in streams.keys.sorted() {
            resend.append(.startUpdates(id, streams[id]!.request))
        }
        for id in headings.keys.sorted() {
            resend.append(.startHeading(id, headings[id]!))
        }
        for id in rangings.keys.sorted() {
            resend.append(.startRanging(id, rangings[id]!))
        }
        resend += openGroups.sorted().map { .openFences($0) }
        if let visitRequest { resend.append(visitRequest) }
        resend += waitingFenceRequests
        waitingFenceRequests.removeAll()
        if endTemporaryFullAccuracyWaiting {
            resend.append(.endTemporaryFullAccuracy)
            endTemporaryFullAccuracyWaiting = false
        }
        resend += accuracyRequests.sorted { $0.key < $1.key }.map { .requestTemporaryFullAccuracy($0.key, purposeKey: $0.value) }
        return (events, resend)
    }

    /// An event from the daemon, or nil when the app must not see it (a duplicate, a replayed fix,
    /// an event of a stream the app has stopped). `now` tells a replayed fix from the clock going back.
    mutating func received(_ event: ServiceEvent, now: Date = Date()) -> ServiceEvent? {
        switch event {
        case .authorizationChanged(let authorization):
            daemon = authorization
            settleAuthorizationRequest(authorization)
            // Before the initial report, the initial value itself carries the change.
            guard let given, given != authorization else { return nil }
            self.given = authorization
            return event
        case .authorizationRequestInProgress(let inProgress):
            guard inProgress != requestInProgress else { return nil }
            requestInProgress = inProgress
            return event
        case let .stream(id, .locations(fixes)):
            guard var stream = streams[id] else { return nil }
            var fresh: [Fix] = []
            fresh.reserveCapacity(fixes.count)
            for fix in fixes {
                if let last = stream.lastFix, ClockStep.isStale(fix.timestamp, after: last, now: now) { continue }
                fresh.append(fix)
                stream.lastFix = fix.timestamp
            }
            guard !fresh.isEmpty else { return nil }
            streams[id] = stream
            return fresh.count == fixes.count ? event : .stream(id, .locations(fresh))
        case .stream(let id, .heading):
            return headings[id] != nil ? event : nil
        case .stream(let id, .completed):
            return streams.removeValue(forKey: id) != nil ? event : nil
        case .stream(let id, .beacons):
            return rangings[id] != nil ? event : nil
        case .stream(let id, .failed):
            return streams[id] != nil || rangings[id] != nil ? event : nil
        case .stream(let id, _):
            return streams[id] != nil ? event : nil
        case .fences(let group, _):
            return openGroups.contains(group) ? event : nil
        case .temporaryFullAccuracy(let id, _):
            return accuracyRequests.removeValue(forKey: id) != nil ? event : nil
        case .visit:
            return event
        }
    }

    /// The connection was lost: nothing changes for the app until the next welcome.
    mutating func disconnected() {
        daemon = nil
    }

    /// An authorization request is settled once a daemon has seen it and the app's status is no
    /// longer undetermined (an Always upgrade is asked once; a no-op request stays a no-op).
    private mutating func settleAuthorizationRequest(_ authorization: EffectiveAuthorization) {
        if authorizationRequest?.sent == true, authorization.status != .notDetermined {
            authorizationRequest = nil
        }
    }

    /// The stream ids the app has active (for tests and diagnostics).
    var activeStreams: [StreamID] { streams.keys.sorted() }
}
