import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import Logging

/// The rule that keeps a copied Info.plist from stealing another app's authorization.
///
/// An app's record stores the executable it was granted to. A client presenting a bundle identifier
/// whose record is bound to *another* executable is not that app: it is known by its own executable
/// path instead, as if its Info.plist had no bundle identifier. A record with no executable (granted
/// with `locationctl grant com.example.app` before the app ever ran) is bound to the first executable
/// that presents the identifier.
///
/// A consequence: an app that moves to another path is a stranger until `locationctl reset ID` lets it
/// bind afresh.
public enum IdentityBinding {
    public enum Decision: Sendable, Equatable {
        /// The identity stands: no record yet, or a record bound to this executable.
        case accepted
        /// The record has no executable yet: bind it to this one.
        case bind
        /// The identifier belongs to another executable.
        case rejected(boundTo: String)
    }

    public static func decide(bundleIdentifier: String?, executablePath: String, record: AppRecord?) -> Decision {
        guard bundleIdentifier != nil, let record else { return .accepted }
        if record.executablePath.isEmpty { return .bind }
        return record.executablePath == executablePath ? .accepted : .rejected(boundTo: record.executablePath)
    }

    /// Who a client is when its bundle identifier cannot be trusted: its executable path. The Info.plist's
    /// name goes too (a copied plist must not lend a prompt its name); the usage descriptions stay, so
    /// the client can still ask for authorization under its own identity.
    public static func unbound(info: AppInfo, executablePath: String) -> (identity: AppIdentity, info: AppInfo) {
        var stripped = info
        stripped.bundleIdentifier = nil
        stripped.displayName = nil
        return (AppIdentityResolver.identity(info: stripped, executablePath: executablePath), stripped)
    }

    /// An unbound record bound to `identity`'s executable. A record made by a grant before the app ran
    /// is named after its identifier; it takes the app's own name too.
    public static func bound(_ record: AppRecord, to identity: AppIdentity) -> AppRecord {
        var bound = record
        bound.executablePath = identity.executablePath
        if record.displayName == identity.id { bound.displayName = identity.displayName }
        return bound
    }

    /// Applies the rule against `store`: who the client is, binding an unbound record on the way.
    ///
    /// A store that cannot be read cannot vouch for the bundle identifier, so the client is then known
    /// by its executable path (everything is denied while the store is broken anyway; this keeps a
    /// stranger from inheriting the app's authorization once the store is fixed).
    ///
    /// - Parameter read: how to read the store's database without waiting for a lock, as this runs on
    ///   an event loop (nil: `store.readWithoutWaiting`). Binding writes, which may wait; it happens
    ///   once in an app's life.
    public static func resolve(
        info: AppInfo, executablePath: String, store: any AuthorizationStore,
        read: (() throws -> AuthorizationDatabase)? = nil, logger: Logger
    ) -> (identity: AppIdentity, info: AppInfo) {
        let claimed = AppIdentityResolver.identity(info: info, executablePath: executablePath)
        guard let bundleID = info.bundleIdentifier else { return (claimed, info) }
        do {
            var decision = decide(bundleIdentifier: bundleID, executablePath: executablePath, record: try (read ?? store.readWithoutWaiting)().apps[bundleID])
            if decision == .bind {
                // Decided again under the store's lock: another client may have bound it meanwhile.
                try store.update { database in
                    decision = decide(bundleIdentifier: bundleID, executablePath: executablePath, record: database.apps[bundleID])
                    if decision == .bind, let record = database.apps[bundleID] {
                        database.apps[bundleID] = bound(record, to: claimed)
                    }
                }
                if decision == .bind {
                    logger.info("bound app to its executable", metadata: ["app": "\(bundleID)", "executable": "\(executablePath)"])
                    return (claimed, info)
                }
            }
            guard case let .rejected(boundTo) = decision else { return (claimed, info) }
            logger.warning("""
                \(executablePath) presents bundle identifier \(bundleID), which belongs to \(boundTo); \
                serving it as \(executablePath) instead (if the app moved, `locationctl reset \(bundleID)` \
                lets it bind afresh)
                """)
        } catch {
            logger.error("cannot check the app's binding: the authorization store is unreadable; serving the client by its executable path",
                         metadata: ["app": "\(bundleID)", "executable": "\(executablePath)", "error": "\(error)"])
        }
        return unbound(info: info, executablePath: executablePath)
    }
}
