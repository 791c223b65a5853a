import Foundation

/// A change the user makes in the location settings (`locationctl grant|revoke|reset|services`).
///
/// One implementation serves both paths: `locationctl` applies it to the store itself when no daemon
/// runs, and `locationd` applies it for the calling user when one does (then every running app sees
/// the change at once).
public enum SettingsChange: Sendable, Equatable {
    /// While Using (or Always), precise (or approximate).
    case grant(app: String, always: Bool, approximate: Bool)
    /// Never.
    case revoke(app: String)
    /// Forget one app's decision: it will be asked again.
    case reset(app: String)
    /// Reset Location & Privacy: forget every app's decision.
    case resetAll
    /// The device-wide Location Services switch.
    case services(enabled: Bool)
}

/// Why a settings change could not be made.
public struct SettingsChangeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
