/// One D-Bus value, as decoded from a message or to be appended to one.
///
/// Containers carry their element signatures, so an empty array or dictionary still has a type
/// (`a{sv}` with no entries is not `as`). A variant wraps exactly one value; `unwrapped` strips any
/// number of variant layers, which is what readers of properties usually want.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `a…` other than a dictionary: the element's complete signature and the elements.
    case array(elementSignature: String, [DBusValue])
    /// `a{KV}`: the key's and the value's signatures, entries in message order.
    case dictionary(keySignature: String, valueSignature: String, [DBusDictEntry])
    /// `(…)`.
    case structure([DBusValue])
    /// `v`.
    case variant(DBusValue)

    /// The value's complete type signature, e.g. `a{sv}`.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        var value = self
        while case .variant(let inner) = value { value = inner }
        return value
    }
}

/// One entry of a D-Bus dictionary.
public struct DBusDictEntry: Sendable, Hashable {
    public var key: DBusValue
    public var value: DBusValue

    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

// Typed readers: each returns nil when the value (variants stripped) is of another type, so a
// reader never traps on what a service sent.
extension DBusValue {
    public var bool: Bool? {
        if case .boolean(let value) = unwrapped { value } else { nil }
    }

    public var double: Double? {
        if case .double(let value) = unwrapped { value } else { nil }
    }

    /// Any integer type, bytes included, whose value fits in `Int` (never a `double`).
    public var integer: Int? {
        switch unwrapped {
        case .byte(let value): Int(value)
        case .int16(let value): Int(value)
        case .uint16(let value): Int(value)
        case .int32(let value): Int(value)
        case .uint32(let value): Int(value)
        case .int64(let value): Int(exactly: value)
        case .uint64(let value): Int(exactly: value)
        default: nil
        }
    }

    /// A string, an object path or a signature.
    public var string: String? {
        switch unwrapped {
        case .string(let value), .objectPath(let value), .signature(let value): value
        default: nil
        }
    }

    /// `ay`.
    public var bytes: [UInt8]? {
        guard case .array(let element, let items) = unwrapped, element == "y" else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(items.count)
        for item in items {
            guard case .byte(let byte) = item else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    /// An array's elements (not a dictionary's).
    public var elements: [DBusValue]? {
        if case .array(_, let items) = unwrapped { items } else { nil }
    }

    /// `as`, `ao`, `ag`, or `av` holding only those; nil for an array of anything else, even an empty one.
    public var strings: [String]? {
        guard case .array(let element, let elements) = unwrapped, ["s", "o", "g", "v"].contains(element) else { return nil }
        var strings: [String] = []
        for element in elements {
            guard let string = element.string else { return nil }
            strings.append(string)
        }
        return strings
    }

    /// A dictionary with string or object-path keys (`a{sv}`, `a{oa{sa{sv}}}`, ...), values as they are;
    /// a repeated key keeps its last value, as the bus's other clients do.
    public var stringKeyed: [String: DBusValue]? {
        guard case .dictionary(let key, _, let entries) = unwrapped, key == "s" || key == "o" else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let name = entry.key.string else { return nil }
            result[name] = entry.value
        }
        return result
    }

    /// `a{qv}` (BlueZ's ManufacturerData): values as they are.
    public var uint16Keyed: [UInt16: DBusValue]? {
        guard case .dictionary("q", _, let entries) = unwrapped else { return nil }
        var result: [UInt16: DBusValue] = [:]
        for entry in entries {
            guard case .uint16(let key) = entry.key else { return nil }
            result[key] = entry.value
        }
        return result
    }
}
