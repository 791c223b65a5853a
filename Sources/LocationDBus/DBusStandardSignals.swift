/// `org.freedesktop.DBus.Properties.PropertiesChanged`: (s interface, a{sv} changed, as invalidated).
public struct DBusPropertiesChanged: Sendable, Equatable {
    public var path: String
    public var interface: String
    public var changed: [String: DBusValue]
    public var invalidated: [String]

    /// Nil unless `signal` is a well-formed PropertiesChanged.
    public init?(_ signal: DBusSignal) {
        guard signal.interface == DBusConnection.propertiesInterface, signal.member == "PropertiesChanged",
              signal.arguments.count == 3, case .string(let interface) = signal.arguments[0],
              let changed = DBusProperties.decode(signal.arguments[1]), let invalidated = signal.arguments[2].strings
        else { return nil }
        path = signal.path
        self.interface = interface
        self.changed = changed
        self.invalidated = invalidated
    }
}

/// `org.freedesktop.DBus.ObjectManager.InterfacesAdded`: (o path, a{sa{sv}} interfaces).
public struct DBusInterfacesAdded: Sendable, Equatable {
    public var objectPath: String
    public var interfaces: DBusInterfaces

    public init?(_ signal: DBusSignal) {
        guard signal.interface == DBusConnection.objectManagerInterface, signal.member == "InterfacesAdded",
              signal.arguments.count == 2, case .objectPath(let path) = signal.arguments[0],
              let interfaces = DBusProperties.decodeInterfaces(signal.arguments[1])
        else { return nil }
        objectPath = path
        self.interfaces = interfaces
    }
}

/// `org.freedesktop.DBus.ObjectManager.InterfacesRemoved`: (o path, as interfaces).
public struct DBusInterfacesRemoved: Sendable, Equatable {
    public var objectPath: String
    public var interfaces: [String]

    public init?(_ signal: DBusSignal) {
        guard signal.interface == DBusConnection.objectManagerInterface, signal.member == "InterfacesRemoved",
              signal.arguments.count == 2, case .objectPath(let path) = signal.arguments[0],
              let interfaces = signal.arguments[1].strings
        else { return nil }
        objectPath = path
        self.interfaces = interfaces
    }
}

/// `org.freedesktop.DBus.NameOwnerChanged` from the bus: (s name, s old owner, s new owner); an empty
/// owner means none.
public struct DBusNameOwnerChanged: Sendable, Equatable {
    public var name: String
    public var oldOwner: String?
    public var newOwner: String?

    public init?(_ signal: DBusSignal) {
        guard signal.interface == DBusConnection.busName, signal.member == "NameOwnerChanged",
              signal.sender == DBusConnection.busName, signal.arguments.count == 3,
              case .string(let name) = signal.arguments[0], case .string(let old) = signal.arguments[1],
              case .string(let new) = signal.arguments[2]
        else { return nil }
        self.name = name
        oldOwner = old.isEmpty ? nil : old
        newOwner = new.isEmpty ? nil : new
    }
}
