import Foundation
import LocationProtocol

extension CLMonitor {
    /// A change of a condition's state, or of why it is not watched.
    public struct Event: Sendable {
        /// `.unknown`, `.satisfied`, `.unsatisfied` or `.unmonitored`.
        public typealias State = __CLMonitoringState

        /// The identifier the condition was added with.
        public let identifier: String
        public let state: State
        public let date: Date
        /// The condition that was actually met, when it is narrower than the one added (a beacon
        /// with a given major and minor, for a condition that allowed any).
        ///
        /// NOTE: always nil on Linux, where only circles are watched.
        public let refinement: (any CLCondition)?

        /// The app has reduced accuracy: conditions need full accuracy, so this one is not watched.
        public let accuracyLimited: Bool
        /// The app is not authorized to use location services.
        public let authorizationDenied: Bool
        /// Location services are off for the whole device (`authorizationDenied` is set too).
        public let authorizationDeniedGlobally: Bool
        /// The user is being asked for authorization.
        public let authorizationRequestInProgress: Bool
        /// The app may not use location services (`.restricted`).
        public let authorizationRestricted: Bool
        /// The app already watches 20 conditions; this one is `.unmonitored`.
        public let conditionLimitExceeded: Bool
        /// This kind of condition cannot be watched here (beacons on Linux, a condition type the
        /// framework does not know, a circle that is too large or not valid); it is `.unmonitored`.
        public let conditionUnsupported: Bool
        /// NOTE: a running Linux process always counts as in use, so this is never set on Linux.
        public let insufficientlyInUse: Bool
        /// The condition could not be stored, so it would not survive a restart of the service.
        public let persistenceUnavailable: Bool
        /// The app's Info.plist sets `NSLocationRequireExplicitServiceSession`, and no
        /// `CLServiceSession` is held.
        ///
        /// NOTE: `CLServiceSession` is not implemented on Linux yet, so such an app has this set on
        /// every event.
        public let serviceSessionRequired: Bool

        init(_ event: FenceEvent, context: MonitorEventContext) {
            identifier = event.identifier
            state = State(event.state)
            date = event.date
            refinement = nil
            let authorization = context.authorization
            let denied = event.issue == .denied
            let globally = denied && authorization?.servicesEnabled == false
            let restricted = denied && !globally && authorization?.status == .restricted
            authorizationDenied = denied && !restricted
            authorizationDeniedGlobally = globally
            authorizationRestricted = restricted
            accuracyLimited = event.issue == .accuracyLimited
            conditionLimitExceeded = event.issue == .limitExceeded
            conditionUnsupported = event.issue == .unsupported || event.issue == .invalidRegion
            persistenceUnavailable = event.issue == .persistenceUnavailable
            authorizationRequestInProgress = context.requestInProgress
            serviceSessionRequired = context.serviceSessionRequired
            insufficientlyInUse = false
        }
    }
}

/// What an event's flags depend on besides the event itself: what the connection last heard.
struct MonitorEventContext: Sendable {
    /// The app's authorization, once the service has told it.
    var authorization: EffectiveAuthorization?
    var requestInProgress = false
    var serviceSessionRequired = false
}

extension __CLMonitoringState {
    init(_ state: FenceState) {
        switch state {
        case .unknown: self = .unknown
        case .inside: self = .satisfied
        case .outside: self = .unsatisfied
        case .unmonitored: self = .unmonitored
        }
    }
}

extension FenceState {
    /// The state a condition is assumed to start in. Nobody can assume a condition unwatched: the
    /// service would never watch it, so `.unmonitored` is taken as `.unknown`.
    init(assuming state: __CLMonitoringState) {
        switch state {
        case .unknown, .unmonitored: self = .unknown
        case .satisfied: self = .inside
        case .unsatisfied: self = .outside
        }
    }
}
