import Foundation
import LocationCore
import LocationPolicy

/// A client's end of a connection to the service: send requests, receive events.
///
/// This is the transport-neutral face the `CoreLocation` module talks to; the in-process
/// transport implements it directly, and `DaemonConnection` (`LocationDaemonClient`) over `locationd`'s socket.
public protocol ClientConnection: AnyObject, Sendable {
    /// The app's authorization at the moment the connection was made.
    var initialAuthorization: EffectiveAuthorization { get }
    func send(_ request: ClientRequest)
    func close()
}

/// Someone who can open connections: the in-process service, or `DaemonServiceProvider` for `locationd`.
public protocol LocationServiceProvider: AnyObject, Sendable {
    func connect(
        app: AppIdentity, info: AppInfo, process: ProcessStamp,
        events: @escaping @Sendable (ServiceEvent) -> Void
    ) -> any ClientConnection

    /// The app's authorization now, without connecting (for `CLLocationManager`'s class methods).
    func currentAuthorization(app: AppIdentity, process: ProcessStamp) -> EffectiveAuthorization
}
