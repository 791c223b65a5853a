import LocationProtocol

/// The version both ends speak; the daemon refuses a `hello` with another one.
public enum WireProtocol {
    /// 6: beacon ranging streams (`startRanging`, `stopRanging`, the `beacons` event and the
    /// `rangingUnavailable` failure).
    /// 5: heading streams (`startHeading`, `stopHeading`, the `heading` event).
    /// 4: visits (`startVisits`, `stopVisits`, the `visit` event and the `visits` update mode).
    /// 3: temporary full accuracy (its request, outcome, prompt and answers; a grant bound to a
    /// process instead of a date). 2: messages are JSON objects with a `type` field and explicit
    /// field names (`WireJSON`); 1 was Swift's synthesized coding of the message enums.
    public static let version = 6
    /// The largest frame either end accepts (kind byte + payload). Anything larger closes the connection:
    /// no legitimate message comes near it, and a hostile length must not make the daemon allocate.
    public static let maximumFrameLength = 256 * 1024
}

/// Everything a client sends `locationd`.
///
/// Note what is absent: a client never says who it is. The daemon identifies it from the socket
/// (the kernel's `SO_PEERCRED`) and reads its Info.plist itself.
public enum ClientMessage: Sendable, Equatable {
    /// The first message on every connection. The daemon answers ``DaemonMessage/welcome(identity:authorization:capabilities:)``
    /// (or ``DaemonMessage/refused(_:)`` and closes).
    case hello(version: Int)
    /// App traffic: authorization requests and update streams, exactly as in-process.
    case request(ClientRequest)
    /// `locationctl grant|revoke|reset|services`, for the calling user. Answered by ``DaemonMessage/settingsResult(_:)``.
    case settings(SettingsChange)
    /// `locationctl apps`. Answered by ``DaemonMessage/apps(_:)``.
    case listApps
    /// Makes this connection the prompt agent of the calling user (`locationctl agent`).
    case registerAgent
    /// The agent's answer to ``DaemonMessage/agentPrompt(id:_:)``; nil when the user dismissed it.
    case agentAnswer(id: UInt64, PromptAnswer?)
    /// `locationctl regions`: every app's fences for the calling user. Answered by ``DaemonMessage/fences(_:)``.
    case listFences
}

/// Everything `locationd` sends a client.
public enum DaemonMessage: Sendable, Equatable {
    /// The answer to `hello`: who the daemon decided the client is, its authorization now, and what the
    /// daemon's sources can measure (the app's `headingAvailable()` and `isRangingAvailable()`).
    case welcome(identity: AppIdentity, authorization: EffectiveAuthorization, capabilities: ServiceCapabilities)
    /// The daemon will not serve this connection (bad version, unreadable peer, protocol error);
    /// it closes the connection after sending this.
    case refused(String)
    /// A service event for the app. Locations travel as binary frames (see ``WireCodec``).
    case event(ServiceEvent)
    /// The outcome of a `settings` message: nil on success, else why it failed.
    case settingsResult(SettingsChangeError?)
    /// The calling user's authorization database (`listApps`)…
    case apps(AuthorizationDatabase)
    /// …or why it cannot be read.
    case appsUnavailable(SettingsChangeError)
    /// A question for the agent.
    case agentPrompt(id: UInt64, PromptRequest)
    /// The question was answered elsewhere (or its app went away): the agent should stop asking.
    case agentPromptWithdrawn(id: UInt64)
    /// The calling user's fences, by app (`listFences`).
    case fences([AppFences])
}
