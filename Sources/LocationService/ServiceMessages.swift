import Foundation
import LocationCore
import LocationEngine
import LocationPolicy

/// A client's stream of updates within its connection (a manager's standard service, one
/// `liveUpdates()` iteration, …).
public typealias StreamID = UInt32

/// Everything a client can ask the service. The same messages travel in-process and, for
/// `locationd`, over its Unix socket — so they are plain `Codable` values.
public enum ClientRequest: Sendable, Equatable, Codable {
    case requestAuthorization(AuthorizationLevel)
    case startUpdates(StreamID, UpdateRequest)
    case changeUpdates(StreamID, UpdateRequest)
    /// Ends an automatic pause (the app called `startUpdatingLocation()` again).
    case resumeUpdates(StreamID)
    case stopUpdates(StreamID)
}

/// Why a stream cannot deliver right now; maps to `CLError.Code`.
public enum ServiceFailure: String, Sendable, Equatable, Codable {
    case locationUnknown
    case denied
}

/// Everything the service tells a client.
public enum ServiceEvent: Sendable, Equatable, Codable {
    /// The app's authorization changed (also the first event after connecting).
    case authorizationChanged(EffectiveAuthorization)
    /// A prompt for this app is waiting for an answer (`true`), or no longer is (`false`).
    case authorizationRequestInProgress(Bool)
    case locations(StreamID, [Fix])
    case failed(StreamID, ServiceFailure)
    case paused(StreamID)
    case stationary(StreamID, Bool)
    /// A single request was answered; the stream is gone.
    case completed(StreamID)
    case sourceFinished(StreamID)
}
