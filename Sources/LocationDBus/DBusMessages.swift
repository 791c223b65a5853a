/// A method call to send: names are checked (libdbus's own validators) before anything is sent.
public struct DBusMethodCall: Sendable, Hashable {
    public var destination: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]

    public init(destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = []) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}

/// A signal received from the bus.
public struct DBusSignal: Sendable, Hashable {
    /// The sender's unique name (`:1.42`); the bus itself is `org.freedesktop.DBus`.
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]

    public init(sender: String, path: String, interface: String, member: String, arguments: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}

/// A match rule for `AddMatch`: which signals the bus should send this connection.
public struct DBusMatchRule: Sendable, Hashable, CustomStringConvertible {
    public var sender: String?
    public var interface: String?
    public var member: String?
    public var path: String?
    public var pathNamespace: String?
    /// The first argument, when it is a string (NameOwnerChanged's name, PropertiesChanged's interface).
    public var arg0: String?

    public init(sender: String? = nil, interface: String? = nil, member: String? = nil, path: String? = nil,
                pathNamespace: String? = nil, arg0: String? = nil) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.arg0 = arg0
    }

    /// The rule in the bus's syntax: `type='signal',sender='org.bluez',...`. A value's apostrophes are
    /// written `'\''` (end the quote, an escaped apostrophe, quote again), as the specification says.
    public var description: String {
        var parts = ["type='signal'"]
        for (key, value) in [("sender", sender), ("interface", interface), ("member", member), ("path", path),
                             ("path_namespace", pathNamespace), ("arg0", arg0)] {
            guard let value else { continue }
            var escaped = ""
            for character in value {
                if character == "'" { escaped += #"'\''"# } else { escaped.append(character) }
            }
            parts.append("\(key)='\(escaped)'")
        }
        return parts.joined(separator: ",")
    }
}
