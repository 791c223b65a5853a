import Foundation
import LocationBootstrap
import LocationCore
import LocationProtocol

/// A structure that contains the location information the framework delivers with each update.
public struct CLLocationUpdate: Sendable {
    /// The location, or nil when this update reports a change of state instead.
    public let location: CLLocation?
    /// Updates are paused because the device is not moving; they resume when it moves.
    @available(iOS, deprecated: 18.0, renamed: "stationary")
    public var isStationary: Bool { stationary }
    public let stationary: Bool
    public let authorizationDenied: Bool
    public let authorizationDeniedGlobally: Bool
    public let authorizationRestricted: Bool
    public let authorizationRequestInProgress: Bool
    /// NOTE: a running Linux process always counts as in use, so this is never set on Linux.
    public let insufficientlyInUse: Bool
    public let locationUnavailable: Bool
    public let accuracyLimited: Bool
    public let serviceSessionRequired: Bool

    init(
        location: CLLocation? = nil, stationary: Bool = false, authorizationDenied: Bool = false,
        authorizationDeniedGlobally: Bool = false, authorizationRestricted: Bool = false,
        authorizationRequestInProgress: Bool = false, locationUnavailable: Bool = false,
        accuracyLimited: Bool = false, serviceSessionRequired: Bool = false
    ) {
        self.location = location
        self.stationary = stationary
        self.authorizationDenied = authorizationDenied
        self.authorizationDeniedGlobally = authorizationDeniedGlobally
        self.authorizationRestricted = authorizationRestricted
        self.authorizationRequestInProgress = authorizationRequestInProgress
        insufficientlyInUse = false
        self.locationUnavailable = locationUnavailable
        self.accuracyLimited = accuracyLimited
        self.serviceSessionRequired = serviceSessionRequired
    }

    /// Configurations that tune live updates to the app's activity.
    public enum LiveConfiguration: Sendable, Hashable {
        case `default`
        case automotiveNavigation
        case otherNavigation
        case fitness
        case airborne

        var activity: UpdateRequest.Activity {
            switch self {
            case .default: .other
            case .automotiveNavigation: .automotiveNavigation
            case .otherNavigation: .otherNavigation
            case .fitness: .fitness
            case .airborne: .airborne
            }
        }
    }

    /// Obtains an asynchronous stream of location updates.
    ///
    /// Iterating the stream establishes an implicit When-In-Use session: if the app's
    /// authorization is not determined, iterating asks for it.
    public static func liveUpdates(_ configuration: LiveConfiguration = .default) -> Updates {
        Updates(configuration: configuration, system: LocationSystem.current)
    }

    /// An asynchronous sequence of location updates.
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = CLLocationUpdate

        let configuration: LiveConfiguration
        let system: LocationSystem

        public func makeAsyncIterator() -> Iterator {
            Iterator(stream: LiveUpdateStream(configuration: configuration, system: system))
        }

        /// The iterator of live updates. The stream ends when the iteration ends.
        public struct Iterator: AsyncIteratorProtocol {
            private let stream: LiveUpdateStream
            private var updates: AsyncStream<CLLocationUpdate>.Iterator

            init(stream: LiveUpdateStream) {
                self.stream = stream
                updates = stream.updates.makeAsyncIterator()
            }

            public mutating func next() async throws -> CLLocationUpdate? {
                await updates.next()
            }
        }
    }
}

/// One iteration of `liveUpdates()`: a connection with one live stream, turned into updates.
final class LiveUpdateStream: Sendable {
    let updates: AsyncStream<CLLocationUpdate>
    private let continuation: AsyncStream<CLLocationUpdate>.Continuation
    private let connection: any ClientConnection
    private let state = LockedState()

    private static let streamID: StreamID = 1

    init(configuration: CLLocationUpdate.LiveConfiguration, system: LocationSystem) {
        (updates, continuation) = AsyncStream.makeStream(of: CLLocationUpdate.self, bufferingPolicy: .bufferingNewest(256))
        let continuation = self.continuation
        let state = self.state
        connection = system.provider.connect(app: system.app, info: system.info, process: system.process) { event in
            if let update = state.translate(event) { continuation.yield(update) }
        }
        let connection = self.connection
        continuation.onTermination = { _ in connection.close() }

        // Unknown until locationd answers: the answer, its first event, then reports any denial.
        let initial = connection.initialAuthorization
        if let initial { state.setAuthorization(initial) }
        let request = UpdateRequest(
            mode: .live, desiredAccuracy: -1, distanceFilter: -1, activity: configuration.activity, pausesAutomatically: false)
        guard system.info.requiresExplicitServiceSession else {
            sessions = nil
            if let initial, let update = LockedState.stateUpdate(for: initial) { continuation.yield(update) }
            // Iterating is an implicit When In Use session. A When In Use request does nothing once
            // the status is determined (Apple's rule, applied by the service), so it is sent
            // whenever the status may still be undetermined.
            if initial == nil || initial?.status == .notDetermined { connection.send(.requestAuthorization(.whenInUse)) }
            connection.send(.startUpdates(Self.streamID, request))
            return
        }
        // The app requires explicit sessions: no implicit one, no prompt. Without a
        // `CLServiceSession` the iteration says a session is required; with one it streams, and
        // says so again when the last session ends.
        let registry = ServiceSessionRegistry.registry(for: system)
        let observation = registry.observe { held in
            if held {
                if let update = state.currentStateUpdate() { continuation.yield(update) }
                connection.send(.startUpdates(Self.streamID, request))
            } else {
                connection.send(.stopUpdates(Self.streamID))
                continuation.yield(CLLocationUpdate(serviceSessionRequired: true))
            }
        }
        sessions = (registry, observation)
    }

    /// The registry this iteration follows when the app requires explicit sessions.
    private let sessions: (registry: ServiceSessionRegistry, observation: UInt64)?

    deinit {
        if let sessions { sessions.registry.stopObserving(sessions.observation) }
        continuation.finish()
        connection.close()
    }

    /// The stream's view of its authorization, shared with the connection's event handler.
    final class LockedState: Sendable {
        private let translator = Locked(ServiceEventTranslator(authorization: .notDetermined))

        func setAuthorization(_ value: EffectiveAuthorization) {
            translator.withLock { $0 = ServiceEventTranslator(authorization: value) }
            known.withLock { $0 = true }
        }

        /// Whether the service's answer (or the initial authorization) has been heard.
        private let known = Locked(false)

        /// The state update for the authorization as last heard, once one has been heard.
        func currentStateUpdate() -> CLLocationUpdate? {
            guard known.withLock({ $0 }) else { return nil }
            return Self.stateUpdate(for: translator.withLock { $0.authorization })
        }

        func translate(_ event: ServiceEvent) -> CLLocationUpdate? {
            let (translated, authorization) = translator.withLock { ($0.translate(event), $0.authorization) }
            switch translated {
            case .authorizationChanged(_, let new):
                known.withLock { $0 = true }
                return Self.stateUpdate(for: new)
            case .authorizationRequestInProgress(let inProgress):
                return inProgress ? CLLocationUpdate(authorizationRequestInProgress: true) : nil
            case .locations(_, let locations):
                return CLLocationUpdate(location: locations.last, accuracyLimited: authorization.accuracy == .reducedAccuracy)
            case .failed(_, .denied):
                // Already reported by the authorization change (or the initial state).
                return nil
            case .failed:
                return CLLocationUpdate(locationUnavailable: true)
            case let .stationary(_, still, lastLocation):
                // While stationary the update carries the last location, which still holds.
                return still ? CLLocationUpdate(location: lastLocation, stationary: true) : nil
            case .paused, .completed, .sourceFinished, .heading, .beacons, .fences, .temporaryFullAccuracy, .visit, nil:
                return nil
            }
        }

        /// The update that reports a state without a location, or nil for states that need none.
        static func stateUpdate(for authorization: EffectiveAuthorization) -> CLLocationUpdate? {
            if !authorization.servicesEnabled {
                return CLLocationUpdate(authorizationDenied: true, authorizationDeniedGlobally: true)
            }
            switch authorization.status {
            case .denied: return CLLocationUpdate(authorizationDenied: true)
            case .restricted: return CLLocationUpdate(authorizationRestricted: true)
            default: return nil
            }
        }
    }
}
