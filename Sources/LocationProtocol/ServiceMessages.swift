/// A client's stream of updates within its connection (a manager's standard service, one
/// `liveUpdates()` iteration, …).
public typealias StreamID = UInt32

/// Identifies one `requestTemporaryFullAccuracyAuthorization` call of a client, so its outcome
/// reaches the caller's completion.
public typealias AccuracyRequestID = UInt32

/// What became of a request for temporary full accuracy.
public enum TemporaryFullAccuracyOutcome: String, Sendable, Equatable {
    /// The user was asked (whatever they answered: the answer arrives as an authorization change).
    case prompted
    /// Nobody was asked: the purpose key is missing, the app already has full accuracy, is not
    /// authorized, another such prompt is showing, or nobody can answer (`CLError.promptDeclined`).
    case declined
}

/// Everything a client can ask the service. The same values travel in-process and, for
/// `locationd`, over its Unix socket (where `LocationWire` gives each its explicit encoding).
public enum ClientRequest: Sendable, Equatable {
    case requestAuthorization(AuthorizationLevel)
    case startUpdates(StreamID, UpdateRequest)
    case changeUpdates(StreamID, UpdateRequest)
    /// Ends an automatic pause (the app called `startUpdatingLocation()` again).
    case resumeUpdates(StreamID)
    case stopUpdates(StreamID)
    /// Starts receiving a fence group's events; answered by ``FenceUpdate/snapshot(_:)``, then the
    /// events kept while the app was not running, then live events.
    case openFences(FenceGroup)
    case closeFences(FenceGroup)
    /// Adds a fence to a group, or replaces the fence with its identifier.
    case addFence(FenceGroup, FenceDefinition)
    case removeFence(FenceGroup, identifier: String)
    /// Asks for a fence's state now (`requestState(for:)`).
    case requestFenceState(FenceGroup, identifier: String)
    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`: answered by
    /// ``ServiceEvent/temporaryFullAccuracy(_:_:)`` with the same id, after any authorization change
    /// the answer made.
    case requestTemporaryFullAccuracy(AccuracyRequestID, purposeKey: String)
    /// Ends the temporary full accuracy the asking process holds (a `CLServiceSession` with a
    /// full-accuracy purpose that obtained it has ended). A grant of another process stays.
    case endTemporaryFullAccuracy
    /// `startMonitoringVisits()`: turns visits on for the app — for every client of it, and after
    /// a relaunch, until ``stopVisits`` — delivered as ``ServiceEvent/visit(_:)``.
    case startVisits
    /// `stopMonitoringVisits()`: turns visits off for the app.
    case stopVisits
    /// Starts a heading stream (`startUpdatingHeading()`): its events are ``StreamEvent/heading(_:)``.
    /// Magnetic headings need no authorization (they tell nothing about where the device is); the
    /// true heading, derived from the magnetic declination at the device's location, is included
    /// only while the client is authorized with full accuracy and has a location stream running.
    case startHeading(StreamID, HeadingRequest)
    case stopHeading(StreamID)
    /// Starts ranging the beacons that satisfy a constraint (`startRangingBeacons(satisfying:)`):
    /// one stream per constraint, whose events are ``StreamEvent/beacons(_:)`` about once a second
    /// and ``StreamEvent/failed(_:)`` (`denied`, `rangingUnavailable`). Ranging needs When In Use or
    /// Always with full accuracy; the stream stays registered while it is not allowed, and ranges
    /// once it is.
    case startRanging(StreamID, BeaconConstraint)
    case stopRanging(StreamID)
}

/// Everything the service tells a client.
public enum ServiceEvent: Sendable, Equatable {
    /// The app's authorization changed (also the first event after connecting).
    case authorizationChanged(EffectiveAuthorization)
    /// A prompt for this app is waiting for an answer (`true`), or no longer is (`false`).
    case authorizationRequestInProgress(Bool)
    /// An event of one of the client's streams.
    case stream(StreamID, StreamEvent)
    /// An event of one of the app's fence groups (see ``FenceUpdate``).
    case fences(FenceGroup, FenceUpdate)
    /// The outcome of the client's ``ClientRequest/requestTemporaryFullAccuracy(_:purposeKey:)``.
    case temporaryFullAccuracy(AccuracyRequestID, TemporaryFullAccuracyOutcome)
    /// A visit of the app's visit monitoring (to every client of the app; approximate without
    /// full accuracy).
    case visit(Visit)
}
