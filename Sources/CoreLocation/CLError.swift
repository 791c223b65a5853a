/// The `NSError` domain of Core Location errors.
public let kCLErrorDomain: String = "kCLErrorDomain"

/// The `userInfo` key of the alternate region in a `.regionMonitoringResponseDelayed` error.
public let kCLErrorUserInfoAlternateRegionKey: String = "kCLErrorUserInfoAlternateRegionKey"

/// A Core Location error, bridged to `NSError` in `kCLErrorDomain`.
///
/// Shaped like Foundation's `URLError`: a struct storing an `NSError`, with a nested `Code` enum
/// and a static member per code, so all of Apple's idioms work:
///
///     do { … } catch CLError.denied { … }
///     catch let error as CLError where error.code == .locationUnknown { … }
///     if (error as? CLError)?.code == .denied { … }
///     (error as NSError).domain == kCLErrorDomain
///
/// NOTE: on Apple platforms an `NSError` in `kCLErrorDomain` also casts with `as? CLError`.
/// Linux has no Objective-C bridging, so that cast fails there; `catch CLError.denied` still
/// matches such an `NSError` (see `Code.~=`).
public struct CLError: _BridgedStoredNSError, Sendable {
    /// The underlying error.
    public let _nsError: NSError

    /// Wraps an error that must be in `kCLErrorDomain`.
    public init(_nsError error: NSError) {
        precondition(error.domain == kCLErrorDomain, "CLError requires an NSError in kCLErrorDomain")
        self._nsError = error
    }

    public static var _nsErrorDomain: String { kCLErrorDomain }

    /// Core Location error codes; raw values match Apple's headers (`rangingUnavailable` is 16,
    /// `rangingFailure` 17: some bindings list them the other way round).
    public enum Code: Int, _ErrorCodeProtocol, Sendable {
        public typealias _ErrorType = CLError

        /// The location is unknown right now; Core Location keeps trying (transient).
        case locationUnknown = 0
        /// The user denied access, or location services are off.
        case denied = 1
        /// The network was unavailable, or the geocoder's rate limit was hit.
        case network = 2
        /// The heading could not be determined (e.g. magnetic interference).
        case headingFailure = 3
        /// The user denied region monitoring.
        case regionMonitoringDenied = 4
        /// A region could not be monitored (e.g. radius above the maximum).
        case regionMonitoringFailure = 5
        /// Monitoring could not be set up immediately.
        case regionMonitoringSetupDelayed = 6
        /// Events for the region may be delayed; `alternateRegion` may suggest another region.
        case regionMonitoringResponseDelayed = 7
        /// Geocoding found nothing.
        case geocodeFoundNoResult = 8
        /// Geocoding found only a partial result.
        case geocodeFoundPartialResult = 9
        /// Geocoding was cancelled.
        case geocodeCanceled = 10
        /// Deferred mode failed.
        case deferredFailed = 11
        /// Deferred mode needs location updates running.
        case deferredNotUpdatingLocation = 12
        /// Deferred mode needs `kCLLocationAccuracyBest` or better.
        case deferredAccuracyTooLow = 13
        /// Deferred mode does not work with a distance filter.
        case deferredDistanceFiltered = 14
        /// Deferred updates were cancelled.
        case deferredCanceled = 15
        /// Beacon ranging is unavailable.
        case rangingUnavailable = 16
        /// Beacon ranging failed.
        case rangingFailure = 17
        /// The temporary full-accuracy prompt was not shown or was declined.
        case promptDeclined = 18
        /// Historical locations could not be retrieved.
        case historicalLocationError = 19

        /// Matches a `CLError` with this code, or any `NSError` in `kCLErrorDomain` with it.
        ///
        /// This is what makes `catch CLError.denied` work. It is more specific than Foundation's
        /// `_ErrorCodeProtocol` version, which only matches errors that cast to `CLError`: on Linux
        /// a plain `NSError` never does (no Objective-C bridging), while on Apple platforms it does.
        public static func ~= (match: Code, error: any Error) -> Bool {
            if let error = error as? CLError { return error.code == match }
            let nsError = error as NSError
            return nsError.domain == kCLErrorDomain && nsError.code == match.rawValue
        }
    }

    /// For `.regionMonitoringResponseDelayed`: a region Core Location suggests monitoring instead.
    public var alternateRegion: CLRegion? {
        _nsError.userInfo[kCLErrorUserInfoAlternateRegionKey] as? CLRegion
    }

    // NOTE: Foundation's default hashes the NSError, and `NSError.hash` traps in
    // swift-corelibs-foundation (Swift 6.3.1). Hash what `==` compares first: the code.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(_nsError.code)
    }

    public var hashValue: Int {
        var hasher = Hasher()
        hash(into: &hasher)
        return hasher.finalize()
    }

    public static var locationUnknown: CLError.Code { .locationUnknown }
    public static var denied: CLError.Code { .denied }
    public static var network: CLError.Code { .network }
    public static var headingFailure: CLError.Code { .headingFailure }
    public static var regionMonitoringDenied: CLError.Code { .regionMonitoringDenied }
    public static var regionMonitoringFailure: CLError.Code { .regionMonitoringFailure }
    public static var regionMonitoringSetupDelayed: CLError.Code { .regionMonitoringSetupDelayed }
    public static var regionMonitoringResponseDelayed: CLError.Code { .regionMonitoringResponseDelayed }
    public static var geocodeFoundNoResult: CLError.Code { .geocodeFoundNoResult }
    public static var geocodeFoundPartialResult: CLError.Code { .geocodeFoundPartialResult }
    public static var geocodeCanceled: CLError.Code { .geocodeCanceled }
    public static var deferredFailed: CLError.Code { .deferredFailed }
    public static var deferredNotUpdatingLocation: CLError.Code { .deferredNotUpdatingLocation }
    public static var deferredAccuracyTooLow: CLError.Code { .deferredAccuracyTooLow }
    public static var deferredDistanceFiltered: CLError.Code { .deferredDistanceFiltered }
    public static var deferredCanceled: CLError.Code { .deferredCanceled }
    public static var rangingUnavailable: CLError.Code { .rangingUnavailable }
    public static var rangingFailure: CLError.Code { .rangingFailure }
    public static var promptDeclined: CLError.Code { .promptDeclined }
    public static var historicalLocationError: CLError.Code { .historicalLocationError }
}
