/// A client's end of a connection to the service: send requests, receive events.
///
/// This is the transport-neutral face the `CoreLocation` module talks to; the in-process
/// transport implements it directly, and `LocationDaemonClient` over `locationd`'s socket.
public protocol ClientConnection: AnyObject, Sendable {
    /// The app's authorization at the moment the connection was made; nil when the transport does
    /// not know it yet, and then the connection's first event is `.authorizationChanged` with it.
    /// (Opening a connection never waits for the service.)
    var initialAuthorization: EffectiveAuthorization? { get }
    func send(_ request: ClientRequest)
    func close()
}

/// Someone who can open connections: the in-process service, or `locationd` through its socket.
public protocol LocationServiceProvider: AnyObject, Sendable {
    func connect(
        app: AppIdentity, info: AppInfo, process: ProcessStamp,
        events: @escaping @Sendable (ServiceEvent) -> Void
    ) -> any ClientConnection

    /// The app's authorization now, without connecting (for `CLLocationManager`'s class methods).
    func currentAuthorization(app: AppIdentity, process: ProcessStamp) -> EffectiveAuthorization

    /// The app's monitored regions now, when the provider can tell without a round trip (the
    /// in-process service); nil otherwise, and the app waits for its connection's snapshot.
    func currentRegions(app: AppIdentity) -> [FenceRecord]?

    /// Whether any location source is configured (for availability class methods). `locationd`'s
    /// provider answers what the daemon's welcome said of its sources (`ServiceCapabilities`).
    var hasLocationSources: Bool { get }

    /// Whether any heading source is configured (`headingAvailable()`).
    var hasHeadingSources: Bool { get }

    /// Whether any beacon source is configured (`isRangingAvailable()`, beacon regions'
    /// `isMonitoringAvailable(for:)`).
    var hasBeaconSources: Bool { get }
}

extension LocationServiceProvider {
    public func currentRegions(app: AppIdentity) -> [FenceRecord]? { nil }
}
