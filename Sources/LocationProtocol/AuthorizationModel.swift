import Foundation

/// Mirrors `CLAuthorizationStatus` (same raw values) without depending on the API layer.
public enum AuthorizationStatus: Int32, Sendable, CaseIterable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorizedAlways = 3
    case authorizedWhenInUse = 4

    public var isAuthorized: Bool { self == .authorizedAlways || self == .authorizedWhenInUse }
}

/// Mirrors `CLAccuracyAuthorization` (same raw values).
public enum AccuracyAuthorization: Int, Sendable {
    case fullAccuracy = 0
    case reducedAccuracy = 1
}

/// The level an app asks for.
public enum AuthorizationLevel: String, Sendable {
    case whenInUse
    case always
}

/// Identifies a running process, so that "Allow Once" can end when that process ends.
/// The start time (clock ticks since boot, from /proc/PID/stat) guards against pid reuse.
public struct ProcessStamp: Sendable, Hashable {
    public var pid: Int32
    public var startTime: UInt64

    public init(pid: Int32, startTime: UInt64) {
        self.pid = pid
        self.startTime = startTime
    }
}

/// A one-time grant of precise location to an app whose user chose approximate location
/// (`requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`).
///
/// Apple's grant lasts until the app stops being in use. On Linux every running process is in use,
/// so the grant lasts as long as the process that asked for it — the same rule as Allow Once.
public struct TemporaryFullAccuracy: Sendable, Equatable {
    /// The key of the purpose string in the app's `NSLocationTemporaryUsageDescriptionDictionary`.
    public var purposeKey: String
    /// The process that asked: the grant ends when it does.
    public var process: ProcessStamp

    public init(purposeKey: String, process: ProcessStamp) {
        self.purposeKey = purposeKey
        self.process = process
    }
}

/// What the store remembers about one app.
public struct AppRecord: Sendable, Equatable {
    /// The user's decision. `.notDetermined` is never stored for long: resetting removes the record.
    public var status: AuthorizationStatus
    public var accuracy: AccuracyAuthorization
    /// Apple lets an app ask for Always once; after that, `requestAlwaysAuthorization()` does nothing.
    public var alwaysRequestUsed: Bool
    /// Set when the app holds authorization through "Allow Once": it lasts while this process lives.
    public var allowOnce: ProcessStamp?
    /// Precise location granted for a while although `accuracy` is reduced.
    public var temporaryFullAccuracy: TemporaryFullAccuracy?
    /// Shown by `locationctl apps`.
    public var displayName: String
    public var executablePath: String
    public var updated: Date

    public init(
        status: AuthorizationStatus, accuracy: AccuracyAuthorization = .fullAccuracy,
        alwaysRequestUsed: Bool = false, allowOnce: ProcessStamp? = nil,
        temporaryFullAccuracy: TemporaryFullAccuracy? = nil,
        displayName: String, executablePath: String, updated: Date
    ) {
        self.status = status
        self.accuracy = accuracy
        self.alwaysRequestUsed = alwaysRequestUsed
        self.allowOnce = allowOnce
        self.temporaryFullAccuracy = temporaryFullAccuracy
        self.displayName = displayName
        self.executablePath = executablePath
        self.updated = updated
    }
}

/// Everything the authorization store holds for one user.
public struct AuthorizationDatabase: Sendable, Equatable {
    /// The device-wide Location Services switch.
    public var servicesEnabled: Bool
    /// Keyed by `AppIdentity.id`.
    public var apps: [String: AppRecord]

    public init(servicesEnabled: Bool = true, apps: [String: AppRecord] = [:]) {
        self.servicesEnabled = servicesEnabled
        self.apps = apps
    }
}

/// What an app is allowed right now, after the global switch, Allow Once expiry and temporary full
/// accuracy are applied.
public struct EffectiveAuthorization: Sendable, Equatable {
    public var status: AuthorizationStatus
    public var accuracy: AccuracyAuthorization
    public var servicesEnabled: Bool

    public init(status: AuthorizationStatus, accuracy: AccuracyAuthorization, servicesEnabled: Bool) {
        self.status = status
        self.accuracy = accuracy
        self.servicesEnabled = servicesEnabled
    }

    public static let notDetermined = EffectiveAuthorization(
        status: .notDetermined, accuracy: .fullAccuracy, servicesEnabled: true)
}

/// Who an app is: the bundle identifier from its Info.plist, else its executable path.
public struct AppIdentity: Sendable, Hashable {
    public var id: String
    public var displayName: String
    public var executablePath: String

    public init(id: String, displayName: String, executablePath: String) {
        self.id = id
        self.displayName = displayName
        self.executablePath = executablePath
    }
}

/// The location-related keys of an app's Info.plist.
public struct AppInfo: Sendable, Equatable {
    public var bundleIdentifier: String?
    public var displayName: String?
    public var whenInUseUsageDescription: String?
    public var alwaysAndWhenInUseUsageDescription: String?
    /// Deprecated key (iOS 8–10); accepted for Always requests like Apple's own docs still suggest.
    public var alwaysUsageDescription: String?
    /// `NSLocationUsageDescription`: macOS's one usage description (and iOS's before iOS 8),
    /// accepted for both levels when the level's own key is absent, so ported macOS apps work.
    public var legacyUsageDescription: String?
    public var defaultAccuracyReduced: Bool
    public var temporaryUsageDescriptions: [String: String]
    public var requiresExplicitServiceSession: Bool
    public var backgroundModes: [String]

    public init(
        bundleIdentifier: String? = nil, displayName: String? = nil,
        whenInUseUsageDescription: String? = nil, alwaysAndWhenInUseUsageDescription: String? = nil,
        alwaysUsageDescription: String? = nil, defaultAccuracyReduced: Bool = false,
        temporaryUsageDescriptions: [String: String] = [:], requiresExplicitServiceSession: Bool = false,
        backgroundModes: [String] = [], legacyUsageDescription: String? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.displayName = displayName
        self.whenInUseUsageDescription = whenInUseUsageDescription
        self.alwaysAndWhenInUseUsageDescription = alwaysAndWhenInUseUsageDescription
        self.alwaysUsageDescription = alwaysUsageDescription
        self.defaultAccuracyReduced = defaultAccuracyReduced
        self.temporaryUsageDescriptions = temporaryUsageDescriptions
        self.requiresExplicitServiceSession = requiresExplicitServiceSession
        self.backgroundModes = backgroundModes
        self.legacyUsageDescription = legacyUsageDescription
    }
}
