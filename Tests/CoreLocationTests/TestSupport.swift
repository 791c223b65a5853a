import CoreLocation
import Testing

/// Archives with `NSKeyedArchiver` (secure coding required) and unarchives as `T`.
func archiveRoundTrip<T: NSObject & NSSecureCoding>(_ object: T, as type: T.Type = T.self) throws -> T? {
    let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
    return try NSKeyedUnarchiver.unarchivedObject(ofClass: type, from: data)
}

/// Relative difference of two distances.
func relativeError(_ value: Double, _ reference: Double) -> Double {
    abs(value - reference) / abs(reference)
}

/// Calls deprecated API without a warning: the call goes through a protocol requirement that
/// is not deprecated, while the deprecated implementation lives in a deprecated context.
protocol DeprecatedAPICall {
    associatedtype Result
    func call() -> Result
}

/// Runs a deprecated-API call.
func callDeprecated<C: DeprecatedAPICall>(_ call: C) -> C.Result {
    call.call()
}
