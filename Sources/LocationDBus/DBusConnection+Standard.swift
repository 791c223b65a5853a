/// The bus's and the standard interfaces' calls: match rules, properties, the object manager.
extension DBusConnection {
    public static let busName = "org.freedesktop.DBus"
    public static let busPath = "/org/freedesktop/DBus"
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"
    public static let objectManagerInterface = "org.freedesktop.DBus.ObjectManager"

    /// Asks the bus to send this connection the signals `rule` selects.
    public func addMatch(_ rule: DBusMatchRule, reply: @escaping Reply = { _ in }) {
        call(DBusMethodCall(destination: Self.busName, path: Self.busPath, interface: Self.busName, member: "AddMatch",
                            arguments: [.string(rule.description)]), reply: reply)
    }

    /// The unique name owning `name`, nil when no one does.
    public func nameOwner(of name: String, reply: @escaping @Sendable (Result<String?, DBusFailure>) -> Void) {
        call(DBusMethodCall(destination: Self.busName, path: Self.busPath, interface: Self.busName,
                            member: "GetNameOwner", arguments: [.string(name)])) { result in
            switch result {
            case .success(let arguments):
                if let owner = arguments.first?.string { reply(.success(owner)) } else { reply(.failure(.unexpectedReply("GetNameOwner"))) }
            case .failure(.remote(let error, _)) where error == "org.freedesktop.DBus.Error.NameHasNoOwner":
                reply(.success(nil))
            case .failure(let failure):
                reply(.failure(failure))
            }
        }
    }

    /// `org.freedesktop.DBus.Properties.Get`: the property's value, variant stripped.
    public func property(_ name: String, of interface: String, at path: String, on destination: String,
                         reply: @escaping @Sendable (Result<DBusValue, DBusFailure>) -> Void) {
        call(DBusMethodCall(destination: destination, path: path, interface: Self.propertiesInterface, member: "Get",
                            arguments: [.string(interface), .string(name)])) { result in
            reply(result.flatMap { arguments in
                guard arguments.count == 1, case .variant(let value) = arguments[0] else {
                    return .failure(.unexpectedReply("Properties.Get returned \(arguments.map(\.signature).joined())"))
                }
                return .success(value.unwrapped)
            })
        }
    }

    /// `org.freedesktop.DBus.Properties.GetAll`: every property of `interface`, variants stripped.
    public func allProperties(of interface: String, at path: String, on destination: String,
                              reply: @escaping @Sendable (Result<[String: DBusValue], DBusFailure>) -> Void) {
        call(DBusMethodCall(destination: destination, path: path, interface: Self.propertiesInterface, member: "GetAll",
                            arguments: [.string(interface)])) { result in
            reply(result.flatMap { arguments in
                guard arguments.count == 1, let properties = DBusProperties.decode(arguments[0]) else {
                    return .failure(.unexpectedReply("Properties.GetAll returned \(arguments.map(\.signature).joined())"))
                }
                return .success(properties)
            })
        }
    }

    /// `org.freedesktop.DBus.Properties.Set`.
    public func setProperty(_ name: String, of interface: String, at path: String, on destination: String,
                            to value: DBusValue, reply: @escaping Reply = { _ in }) {
        call(DBusMethodCall(destination: destination, path: path, interface: Self.propertiesInterface, member: "Set",
                            arguments: [.string(interface), .string(name), .variant(value)]), reply: reply)
    }

    /// `org.freedesktop.DBus.ObjectManager.GetManagedObjects`: objects by path, interfaces by name,
    /// properties by name (variants stripped).
    public func managedObjects(at path: String, on destination: String,
                               reply: @escaping @Sendable (Result<[String: DBusInterfaces], DBusFailure>) -> Void) {
        call(DBusMethodCall(destination: destination, path: path, interface: Self.objectManagerInterface,
                            member: "GetManagedObjects")) { result in
            reply(result.flatMap { arguments in
                guard arguments.count == 1, let objects = arguments[0].stringKeyed else {
                    return .failure(.unexpectedReply("GetManagedObjects returned \(arguments.map(\.signature).joined())"))
                }
                var decoded: [String: DBusInterfaces] = [:]
                for (objectPath, value) in objects {
                    guard let interfaces = DBusProperties.decodeInterfaces(value) else {
                        return .failure(.unexpectedReply("GetManagedObjects: object \(objectPath)"))
                    }
                    decoded[objectPath] = interfaces
                }
                return .success(decoded)
            })
        }
    }
}
