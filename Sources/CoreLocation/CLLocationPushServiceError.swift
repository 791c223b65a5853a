/// The `NSError` domain of location push service errors.
public let CLLocationPushServiceErrorDomain: String = "CLLocationPushServiceErrorDomain"

/// An error from the location push service, bridged to `NSError` in `CLLocationPushServiceErrorDomain`.
///
/// Same shape as `CLError`. NOTE: location pushes need Apple's push notification service,
/// which Linux does not have.
public struct CLLocationPushServiceError: _BridgedStoredNSError, Sendable {
    /// The underlying error.
    public let _nsError: NSError

    /// Wraps an error that must be in `CLLocationPushServiceErrorDomain`.
    public init(_nsError error: NSError) {
        precondition(
            error.domain == CLLocationPushServiceErrorDomain,
            "CLLocationPushServiceError requires an NSError in CLLocationPushServiceErrorDomain")
        self._nsError = error
    }

    public static var _nsErrorDomain: String { CLLocationPushServiceErrorDomain }

    /// Location push service error codes; raw values match Apple's headers.
    public enum Code: Int, _ErrorCodeProtocol, Sendable {
        public typealias _ErrorType = CLLocationPushServiceError

        /// An unknown error.
        case unknown = 0
        /// The app has no location push service extension.
        case missingPushExtension = 1
        /// The app has no APNs environment entitlement.
        case missingPushServerEnvironment = 2
        /// The app lacks the `com.apple.developer.location.push` entitlement.
        case missingEntitlement = 3
        /// The platform does not support location pushes.
        case unsupportedPlatform = 4

        /// Matches a `CLLocationPushServiceError` with this code, or an `NSError` in its domain
        /// (see `CLError.Code.~=` for why).
        public static func ~= (match: Code, error: any Error) -> Bool {
            if let error = error as? CLLocationPushServiceError { return error.code == match }
            let nsError = error as NSError
            return nsError.domain == CLLocationPushServiceErrorDomain && nsError.code == match.rawValue
        }
    }

    // NOTE: see `CLError.hash(into:)`: `NSError.hash` traps in swift-corelibs-foundation.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(_nsError.code)
    }

    public var hashValue: Int {
        var hasher = Hasher()
        hash(into: &hasher)
        return hasher.finalize()
    }

    public static var unknown: CLLocationPushServiceError.Code { .unknown }
    public static var missingPushExtension: CLLocationPushServiceError.Code { .missingPushExtension }
    public static var missingPushServerEnvironment: CLLocationPushServiceError.Code { .missingPushServerEnvironment }
    public static var missingEntitlement: CLLocationPushServiceError.Code { .missingEntitlement }
    public static var unsupportedPlatform: CLLocationPushServiceError.Code { .unsupportedPlatform }
}
