import Foundation

// Location pushes need Apple's push notification service and a push service extension, which
// Linux does not have: the methods exist, so ported code compiles, and fail as on a platform
// without them (`CLLocationPushServiceError.unsupportedPlatform`).
extension CLLocationManager {
    /// Starts monitoring for location pushes. On Linux the completion is called once, on the
    /// manager's callback context, with no token and `CLLocationPushServiceError.unsupportedPlatform`.
    public func startMonitoringLocationPushes(completion: ((Data?, (any Error)?) -> Void)?) {
        guard let completion else { return }
        let call = UncheckedCompletion(completion)
        context.perform { call.completion(nil, CLLocationPushServiceError(.unsupportedPlatform)) }
    }

    /// Starts monitoring for location pushes. On Linux it throws
    /// `CLLocationPushServiceError.unsupportedPlatform`.
    public func startMonitoringLocationPushes() async throws -> Data {
        throw CLLocationPushServiceError(.unsupportedPlatform)
    }

    /// Stops monitoring for location pushes: there is nothing to stop on Linux.
    public func stopMonitoringLocationPushes() {}
}

/// The app's completion handler (not `Sendable`) carried to the manager's callback context, where
/// it is called once.
private struct UncheckedCompletion: @unchecked Sendable {
    let completion: (Data?, (any Error)?) -> Void
    init(_ completion: @escaping (Data?, (any Error)?) -> Void) { self.completion = completion }
}
