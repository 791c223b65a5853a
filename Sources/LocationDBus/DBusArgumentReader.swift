#if canImport(CDBus)
import CDBus
import Glibc

/// D-Bus type codes, as libdbus's `DBUS_TYPE_*` macros define them (the ASCII code of each letter).
enum DBusTypeCode {
    static let invalid: Int32 = 0
    static let byte = code("y")
    static let boolean = code("b")
    static let int16 = code("n")
    static let uint16 = code("q")
    static let int32 = code("i")
    static let uint32 = code("u")
    static let int64 = code("x")
    static let uint64 = code("t")
    static let double = code("d")
    static let string = code("s")
    static let objectPath = code("o")
    static let signature = code("g")
    static let unixFD = code("h")
    static let array = code("a")
    static let variant = code("v")
    static let structure = code("r")
    static let dictEntry = code("e")

    private static func code(_ letter: Unicode.Scalar) -> Int32 { Int32(letter.value) }
}

/// Reads a message's arguments into `DBusValue`s with libdbus's iterator API.
///
/// libdbus has already validated every message it hands out (signature, nesting depth at most 64,
/// UTF-8, object paths, lengths), so the shapes here are well formed; what is not expected
/// (a Unix file descriptor, which we never ask for) is an error, never a trap.
enum DBusArgumentReader {
    static func arguments(of message: OpaquePointer) throws(DBusFailure) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        var values: [DBusValue] = []
        repeat {
            values.append(try value(at: &iterator))
        } while dbus_message_iter_next(&iterator) != 0
        return values
    }

    /// The value the iterator points at (it does not advance).
    static func value(at iterator: inout DBusMessageIter) throws(DBusFailure) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iterator)
        var basic = DBusBasicValue()
        switch type {
        case DBusTypeCode.byte:
            dbus_message_iter_get_basic(&iterator, &basic)
            return .byte(basic.byt)
        case DBusTypeCode.boolean:
            dbus_message_iter_get_basic(&iterator, &basic)
            return .boolean(basic.bool_val != 0)
        case DBusTypeCode.int16:
            dbus_message_iter_get_basic(&iterator, &basic)
            return .int16(basic.i16)
        case DBusTypeCode.uint16:
            dbus_message_iter_get_basic(&iterator, &basic)
            return .uint16(basic.u16)
        case DBusTypeCode.int32:
            dbus_message_iter_get_basic(&iterator, &basic)
            return .int32(basic.i32)
        case DBusTypeCode.uint32:
            dbus_message_iter_get_basic(&iterator, &basic)
            return .uint32(basic.u32)
        case DBusTypeCode.int64:
            dbus_message_iter_get_basic(&iterator, &basic)
            return .int64(Int64(basic.i64))
        case DBusTypeCode.uint64:
            dbus_message_iter_get_basic(&iterator, &basic)
            return .uint64(UInt64(basic.u64))
        case DBusTypeCode.double:
            dbus_message_iter_get_basic(&iterator, &basic)
            return .double(basic.dbl)
        case DBusTypeCode.string, DBusTypeCode.objectPath, DBusTypeCode.signature:
            dbus_message_iter_get_basic(&iterator, &basic)
            guard let pointer = basic.str, let text = String(validatingCString: pointer) else {
                throw .unexpectedReply("a string that is not UTF-8")
            }
            return type == DBusTypeCode.string ? .string(text) : type == DBusTypeCode.objectPath ? .objectPath(text) : .signature(text)
        case DBusTypeCode.unixFD:
            // libdbus hands out a duplicate of the descriptor: close it, then refuse the value.
            dbus_message_iter_get_basic(&iterator, &basic)
            if basic.fd >= 0 { close(basic.fd) }
            throw .unexpectedReply("a Unix file descriptor")
        case DBusTypeCode.array:
            return try array(at: &iterator)
        case DBusTypeCode.structure:
            var fields = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &fields)
            return .structure(try sequence(from: &fields))
        case DBusTypeCode.variant:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            guard dbus_message_iter_get_arg_type(&inner) != DBusTypeCode.invalid else {
                throw .unexpectedReply("an empty variant")
            }
            return .variant(try value(at: &inner))
        default:
            throw .unexpectedReply("type code \(type)")
        }
    }

    private static func array(at iterator: inout DBusMessageIter) throws(DBusFailure) -> DBusValue {
        // The array's own signature (`a…`) names the element type even when the array is empty.
        guard let raw = dbus_message_iter_get_signature(&iterator) else { throw .unexpectedReply("no signature") }
        let signature = String(cString: raw)
        dbus_free(raw)
        guard signature.hasPrefix("a") else { throw .unexpectedReply("array signature \(signature)") }
        let elementSignature = String(signature.dropFirst())
        var elements = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &elements)
        guard dbus_message_iter_get_element_type(&iterator) == DBusTypeCode.dictEntry else {
            return .array(elementSignature: elementSignature, try sequence(from: &elements))
        }
        // `{KV}`: the key is one basic type code, the value the rest.
        guard elementSignature.count >= 4, elementSignature.hasPrefix("{"), elementSignature.hasSuffix("}") else {
            throw .unexpectedReply("dictionary signature \(signature)")
        }
        let body = elementSignature.dropFirst().dropLast()
        let keySignature = String(body.prefix(1))
        let valueSignature = String(body.dropFirst())
        var entries: [DBusDictEntry] = []
        while dbus_message_iter_get_arg_type(&elements) == DBusTypeCode.dictEntry {
            var entry = DBusMessageIter()
            dbus_message_iter_recurse(&elements, &entry)
            let key = try value(at: &entry)
            guard dbus_message_iter_next(&entry) != 0 else { throw .unexpectedReply("a dictionary entry without a value") }
            entries.append(DBusDictEntry(key: key, value: try value(at: &entry)))
            guard dbus_message_iter_next(&elements) != 0 else { break }
        }
        return .dictionary(keySignature: keySignature, valueSignature: valueSignature, entries)
    }

    /// Every value from the iterator's position to the end of its container.
    private static func sequence(from iterator: inout DBusMessageIter) throws(DBusFailure) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != DBusTypeCode.invalid {
            values.append(try value(at: &iterator))
            guard dbus_message_iter_next(&iterator) != 0 else { break }
        }
        return values
    }
}
#endif
