import Foundation
import LocationProtocol

extension SettingsChange {
    /// Applies the change to one user's database.
    /// - Throws: ``SettingsChangeError`` when resetting an app the store does not know.
    public func apply(to database: inout AuthorizationDatabase, now: Date) throws {
        switch self {
        case let .grant(app, always, approximate):
            var record = database.apps[app] ?? Self.newRecord(app, status: .notDetermined, now: now)
            record.status = always ? .authorizedAlways : .authorizedWhenInUse
            record.accuracy = approximate ? .reducedAccuracy : .fullAccuracy
            record.allowOnce = nil
            // The user's explicit choice of accuracy ends a temporary grant.
            record.temporaryFullAccuracy = nil
            record.updated = now
            database.apps[app] = record
        case let .revoke(app):
            var record = database.apps[app] ?? Self.newRecord(app, status: .denied, now: now)
            record.status = .denied
            record.allowOnce = nil
            record.temporaryFullAccuracy = nil
            record.updated = now
            database.apps[app] = record
        case let .reset(app):
            guard database.apps.removeValue(forKey: app) != nil else {
                throw SettingsChangeError("no app \(app) in the store (see `locationctl apps`)")
            }
        case .resetAll:
            database.apps.removeAll()
        case let .services(enabled):
            database.servicesEnabled = enabled
        }
    }

    /// What `locationctl` prints once the change is made.
    public var summary: String {
        switch self {
        case let .grant(app, always, approximate):
            "\(app): \(always ? "Always" : "While Using"), \(approximate ? "approximate" : "precise")"
        case let .revoke(app): "\(app): denied"
        case let .reset(app): "\(app): reset"
        case .resetAll: "all apps reset"
        case let .services(enabled): "Location Services: \(enabled ? "on" : "off")"
        }
    }

    /// A record for an app the store has not seen: named after its id. A record created by a grant
    /// for a bundle identifier has no executable yet; `locationd` binds it to the first executable
    /// that presents that identifier.
    static func newRecord(_ app: String, status: AuthorizationStatus, now: Date) -> AppRecord {
        AppRecord(
            status: status,
            displayName: app.hasPrefix("/") ? URL(fileURLWithPath: app).lastPathComponent : app,
            executablePath: app.hasPrefix("/") ? app : "", updated: now)
    }
}
