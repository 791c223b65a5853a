/// Which bus to connect to.
public enum DBusBus: Sendable, Hashable, CustomStringConvertible {
    /// The system bus: `DBUS_SYSTEM_BUS_ADDRESS` when set (libdbus reads it), else
    /// `unix:path=/var/run/dbus/system_bus_socket`.
    case system
    /// A bus at a D-Bus address, e.g. `unix:path=/tmp/test-bus` (a private bus in tests).
    case address(String)

    public var description: String {
        switch self {
        case .system: "system bus"
        case .address(let address): address
        }
    }
}
