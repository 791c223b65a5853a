#if canImport(CDBus)
import CDBus

/// Appends `DBusValue`s to a message with libdbus's iterator API.
///
/// Every value is checked first (`check`): libdbus treats invalid strings, paths or signatures passed
/// to its append functions as programming errors (a warning, or an abort where warnings are fatal), so
/// nothing invalid may reach it. After the check, an append fails only when memory runs out.
enum DBusArgumentWriter {
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(DBusFailure) {
        for value in values { try check(value) }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for value in values {
            guard append(value, to: &iterator) else { throw .invalidArgument("out of memory appending arguments") }
        }
    }

    /// Throws unless libdbus will accept `value`: a valid complete signature (at most 255 bytes, nesting
    /// within D-Bus's limits), strings without NUL, valid object paths and signatures, array elements
    /// and dictionary entries of the declared types.
    static func check(_ value: DBusValue) throws(DBusFailure) {
        try checkSignature(value.signature)
        try checkContents(value)
    }

    private static func checkSignature(_ signature: String) throws(DBusFailure) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard dbus_signature_validate_single(signature, &error) != 0 else {
            throw .invalidArgument("signature \(signature)")
        }
    }

    private static func checkContents(_ value: DBusValue) throws(DBusFailure) {
        switch value {
        case .string(let text):
            guard !text.utf8.contains(0) else { throw .invalidArgument("a string containing NUL") }
        case .objectPath(let path):
            guard DBusNames.isValidPath(path) else { throw .invalidArgument("object path \(path)") }
        case .signature(let signature):
            var error = CDBus.DBusError()
            dbus_error_init(&error)
            defer { dbus_error_free(&error) }
            guard !signature.utf8.contains(0), dbus_signature_validate(signature, &error) != 0 else {
                throw .invalidArgument("signature \(signature)")
            }
        case .array(let elementSignature, let elements):
            for element in elements {
                guard element.signature == elementSignature else {
                    throw .invalidArgument("array of \(elementSignature) holding \(element.signature)")
                }
                try checkContents(element)
            }
        case .dictionary(let keySignature, let valueSignature, let entries):
            for entry in entries {
                guard entry.key.signature == keySignature, entry.value.signature == valueSignature else {
                    throw .invalidArgument("dictionary of {\(keySignature)\(valueSignature)} holding {\(entry.key.signature)\(entry.value.signature)}")
                }
                try checkContents(entry.key)
                try checkContents(entry.value)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw .invalidArgument("an empty structure") }
            for field in fields { try checkContents(field) }
        case .variant(let inner):
            // A variant starts a new signature, with its own length and depth limits.
            try check(inner)
        default:
            break
        }
    }

    private static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(var byte): return dbus_message_iter_append_basic(&iterator, DBusTypeCode.byte, &byte) != 0
        case .boolean(let flag):
            var number: dbus_bool_t = flag ? 1 : 0
            return dbus_message_iter_append_basic(&iterator, DBusTypeCode.boolean, &number) != 0
        case .int16(var number): return dbus_message_iter_append_basic(&iterator, DBusTypeCode.int16, &number) != 0
        case .uint16(var number): return dbus_message_iter_append_basic(&iterator, DBusTypeCode.uint16, &number) != 0
        case .int32(var number): return dbus_message_iter_append_basic(&iterator, DBusTypeCode.int32, &number) != 0
        case .uint32(var number): return dbus_message_iter_append_basic(&iterator, DBusTypeCode.uint32, &number) != 0
        case .int64(var number): return dbus_message_iter_append_basic(&iterator, DBusTypeCode.int64, &number) != 0
        case .uint64(var number): return dbus_message_iter_append_basic(&iterator, DBusTypeCode.uint64, &number) != 0
        case .double(var number): return dbus_message_iter_append_basic(&iterator, DBusTypeCode.double, &number) != 0
        case .string(let text): return appendString(text, type: DBusTypeCode.string, to: &iterator)
        case .objectPath(let text): return appendString(text, type: DBusTypeCode.objectPath, to: &iterator)
        case .signature(let text): return appendString(text, type: DBusTypeCode.signature, to: &iterator)
        case .array(let elementSignature, let elements):
            return appendContainer(DBusTypeCode.array, signature: elementSignature, to: &iterator) { inner in
                elements.allSatisfy { append($0, to: &inner) }
            }
        case .dictionary(let keySignature, let valueSignature, let entries):
            return appendContainer(DBusTypeCode.array, signature: "{\(keySignature)\(valueSignature)}", to: &iterator) { inner in
                entries.allSatisfy { entry in
                    appendContainer(DBusTypeCode.dictEntry, signature: nil, to: &inner) { pair in
                        append(entry.key, to: &pair) && append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            return appendContainer(DBusTypeCode.structure, signature: nil, to: &iterator) { inner in
                fields.allSatisfy { append($0, to: &inner) }
            }
        case .variant(let inner):
            return appendContainer(DBusTypeCode.variant, signature: inner.signature, to: &iterator) { contents in
                append(inner, to: &contents)
            }
        }
    }

    private static func appendString(_ text: String, type: Int32, to iterator: inout DBusMessageIter) -> Bool {
        text.withCString { pointer in
            var reference: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iterator, type, &reference) != 0
        }
    }

    private static func appendContainer(_ type: Int32, signature: String?, to iterator: inout DBusMessageIter,
                                        _ contents: (inout DBusMessageIter) -> Bool) -> Bool {
        var inner = DBusMessageIter()
        let opened = if let signature {
            dbus_message_iter_open_container(&iterator, type, signature, &inner)
        } else {
            dbus_message_iter_open_container(&iterator, type, nil, &inner)
        }
        guard opened != 0 else { return false }
        guard contents(&inner) else {
            dbus_message_iter_abandon_container(&iterator, &inner)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &inner) != 0
    }
}
#endif
