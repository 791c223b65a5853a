/// An object's interfaces by name, each with its properties by name.
public typealias DBusInterfaces = [String: [String: DBusValue]]

/// Reading the standard shapes of properties out of decoded values.
public enum DBusProperties {
    /// `a{sv}` → properties by name, variants stripped; nil for any other shape.
    public static func decode(_ value: DBusValue) -> [String: DBusValue]? {
        guard case .dictionary("s", _, _) = value.unwrapped, let entries = value.stringKeyed else { return nil }
        return entries.mapValues(\.unwrapped)
    }

    /// `a{sa{sv}}` → interfaces by name; nil for any other shape.
    public static func decodeInterfaces(_ value: DBusValue) -> DBusInterfaces? {
        guard case .dictionary("s", _, _) = value.unwrapped, let interfaces = value.stringKeyed else { return nil }
        var decoded: DBusInterfaces = [:]
        for (name, properties) in interfaces {
            guard let properties = decode(properties) else { return nil }
            decoded[name] = properties
        }
        return decoded
    }
}
