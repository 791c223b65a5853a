#if canImport(CDBus)
import CDBus

/// libdbus's own validators for names and paths, so nothing libdbus would reject (with a warning, or
/// an abort where its warnings are fatal) reaches its message constructors.
enum DBusNames {
    static func isValidPath(_ path: String) -> Bool { validate(path, dbus_validate_path) }
    static func isValidInterface(_ name: String) -> Bool { validate(name, dbus_validate_interface) }
    static func isValidMember(_ name: String) -> Bool { validate(name, dbus_validate_member) }
    static func isValidBusName(_ name: String) -> Bool { validate(name, dbus_validate_bus_name) }

    private static func validate(_ text: String,
                                 _ validator: (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t) -> Bool {
        guard !text.utf8.contains(0) else { return false }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        return validator(text, &error) != 0
    }

    /// Throws unless libdbus will accept the call's names.
    static func check(_ call: DBusMethodCall) throws(DBusFailure) {
        guard isValidBusName(call.destination) else { throw .invalidArgument("bus name \(call.destination)") }
        guard isValidPath(call.path) else { throw .invalidArgument("object path \(call.path)") }
        guard isValidInterface(call.interface) else { throw .invalidArgument("interface \(call.interface)") }
        guard isValidMember(call.member) else { throw .invalidArgument("member \(call.member)") }
    }
}
#endif
