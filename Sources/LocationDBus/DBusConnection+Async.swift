/// `async` forms of the calls, for callers in Swift concurrency (tools and tests).
extension DBusConnection {
    public func call(_ call: DBusMethodCall, timeout: Double = DBusConnection.defaultTimeout) async throws(DBusFailure) -> [DBusValue] {
        let result = await withCheckedContinuation { continuation in
            self.call(call, timeout: timeout) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}

extension DBusConnection {
    /// The unique name owning `name`, nil when no one does.
    public func nameOwner(of name: String) async throws(DBusFailure) -> String? {
        let result = await withCheckedContinuation { continuation in
            self.nameOwner(of: name) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}
