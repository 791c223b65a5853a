/// Everything a stream of updates can tell its client: one type from the engine to the API.
///
/// The engine produces these for each subscription, the service forwards them (after applying the
/// app's authorization) as ``ServiceEvent/stream(_:_:)``, the wire carries them, and the API turns
/// them into delegate callbacks or `CLLocationUpdate`s. A new kind of update is a new case here.
public enum StreamEvent: Sendable, Equatable {
    /// New fixes, oldest first (never empty).
    case locations([Fix])
    /// The stream cannot deliver right now.
    case failed(StreamFailure)
    /// Continuous mode paused because the device stopped moving; the client must resume it.
    case paused
    /// Live mode: the device became stationary (`true`) or started moving again (`false`).
    case stationary(Bool)
    /// A single request has been answered (after its fix or its failure); the stream is gone.
    case completed
    /// The source has no more data (a replayed file ended).
    case sourceFinished
    /// Visit mode: the device arrived at a place (no departure yet) or left it.
    case visit(Visit)
    /// A heading stream's new heading. `trueHeading` is set only when the client may have it (see
    /// ``ClientRequest/startHeading(_:_:)``).
    case heading(HeadingSample)
    /// A ranging stream's scan: every tracked beacon that satisfies its constraint, sorted by
    /// identity (may be empty: none is in range).
    case beacons([RangedBeacon])
}

/// Why a stream cannot deliver right now; maps to `CLError.Code`.
public enum StreamFailure: String, Sendable, Equatable, CaseIterable {
    /// No position right now; transient — the engine keeps trying.
    case locationUnknown
    /// The app is not authorized.
    case denied
    /// Beacon ranging cannot run: no beacon source, the adapter cannot scan, location services are
    /// off, or the app has reduced accuracy (`CLError.rangingUnavailable`).
    case rangingUnavailable
}
