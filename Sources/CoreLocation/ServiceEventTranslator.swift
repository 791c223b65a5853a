import LocationProtocol

/// The one place where the service's events become Core Location's values: locations become
/// `CLLocation`s, failures `CLError` codes, and authorization reports become changes only when the
/// app can observe them. `CLLocationManager` and `CLLocationUpdate` both read what it returns.
struct ServiceEventTranslator: Sendable {
    /// A service event in the API's terms.
    enum Translated {
        /// The app's authorization changed in a way it can observe.
        case authorizationChanged(old: EffectiveAuthorization, new: EffectiveAuthorization)
        case authorizationRequestInProgress(Bool)
        /// New locations, oldest first (never empty).
        case locations(StreamID, [CLLocation])
        case failed(StreamID, CLError.Code)
        case paused(StreamID)
        /// Live updates: stationary or moving again, with the last location delivered.
        case stationary(StreamID, Bool, lastLocation: CLLocation?)
        case completed(StreamID)
        case sourceFinished(StreamID)
        /// A heading stream's sample; the manager applies its orientation.
        case heading(StreamID, HeadingSample)
        /// A ranging stream's scan, in the service's order (may be empty).
        case beacons(StreamID, [CLBeacon])
        /// Fence updates pass through: regions and monitors read them themselves.
        case fences(FenceGroup, FenceUpdate)
        /// The outcome of a manager's request for temporary full accuracy.
        case temporaryFullAccuracy(AccuracyRequestID, TemporaryFullAccuracyOutcome)
        /// A visit of the app's visit monitoring.
        case visit(CLVisit)
    }

    /// The authorization the app was last told about.
    private(set) var authorization: EffectiveAuthorization
    /// The newest location delivered on any stream.
    private(set) var lastLocation: CLLocation?

    init(authorization: EffectiveAuthorization) {
        self.authorization = authorization
    }

    /// The event in the API's terms, or nil when the app has nothing to observe.
    mutating func translate(_ event: ServiceEvent) -> Translated? {
        switch event {
        case .authorizationChanged(let new):
            let old = authorization
            authorization = new
            guard new != old else { return nil }
            return .authorizationChanged(old: old, new: new)
        case .authorizationRequestInProgress(let inProgress):
            return .authorizationRequestInProgress(inProgress)
        case let .stream(stream, event):
            switch event {
            case .locations(let fixes):
                let locations = fixes.map { CLLocation(fix: $0) }
                guard let last = locations.last else { return nil }
                lastLocation = last
                return .locations(stream, locations)
            case .failed(let failure):
                return .failed(stream, Self.code(failure))
            case .paused:
                return .paused(stream)
            case .stationary(let still):
                return .stationary(stream, still, lastLocation: lastLocation)
            case .completed:
                return .completed(stream)
            case .sourceFinished:
                return .sourceFinished(stream)
            case .visit:
                // The service sends visits as the app's, never on a stream.
                return nil
            case .heading(let sample):
                return .heading(stream, sample)
            case .beacons(let beacons):
                return .beacons(stream, beacons.map(CLBeacon.init(ranged:)))
            }
        case let .fences(group, update):
            return .fences(group, update)
        case let .temporaryFullAccuracy(request, outcome):
            return .temporaryFullAccuracy(request, outcome)
        case .visit(let visit):
            return .visit(CLVisit(visit))
        }
    }

    private static func code(_ failure: StreamFailure) -> CLError.Code {
        switch failure {
        case .denied: .denied
        case .locationUnknown: .locationUnknown
        case .rangingUnavailable: .rangingUnavailable
        }
    }
}
