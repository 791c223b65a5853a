/// The app's authorization to use location services. Raw values match Apple's (`Int32`).
public enum CLAuthorizationStatus: Int32, Sendable {
    /// The user has not been asked yet.
    case notDetermined = 0
    /// Not authorized, and the user cannot change it (e.g. parental or administrative policy).
    case restricted = 1
    /// The user denied the app, or location services are off device-wide.
    case denied = 2
    /// Authorized at any time, including in the background.
    case authorizedAlways = 3
    /// Authorized while the app is in use.
    case authorizedWhenInUse = 4

    /// The pre-iOS 8 name of `authorizedAlways`.
    ///
    /// NOTE: on Apple platforms this is deprecated on iOS only (macOS still uses it); we follow iOS.
    @available(*, deprecated, renamed: "authorizedAlways")
    public static var authorized: CLAuthorizationStatus { .authorizedAlways }
}
