/// Why a D-Bus operation failed. Nothing a service or the bus sends is a crash: it is one of these.
public enum DBusFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// This build has no D-Bus: libdbus-1-dev (headers and `libdbus-1.so`) was missing when it was built.
    case unavailable
    /// The bus could not be reached or refused us (address, socket, authentication).
    case connectionFailed(String)
    /// The connection to the bus is closed (the bus went away, or `close()` was called).
    case disconnected
    /// The service answered with a D-Bus error, e.g. `org.freedesktop.DBus.Error.ServiceUnknown`.
    case remote(name: String, message: String)
    /// No reply within the call's timeout.
    case timeout
    /// A name, path or value that D-Bus cannot carry (checked before anything is sent).
    case invalidArgument(String)
    /// A reply or signal whose arguments are not of the type the caller expects.
    case unexpectedReply(String)

    /// The standard error names a caller may want to tell apart.
    public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"

    public var description: String {
        switch self {
        case .unavailable: "D-Bus support was not built: install libdbus-1-dev and rebuild"
        case .connectionFailed(let reason): "cannot connect to the bus: \(reason)"
        case .disconnected: "disconnected from the bus"
        case .remote(let name, let message): message.isEmpty ? name : "\(name): \(message)"
        case .timeout: "no reply in time"
        case .invalidArgument(let reason): "invalid argument: \(reason)"
        case .unexpectedReply(let reason): "unexpected reply: \(reason)"
        }
    }
}
