import Foundation
import LocationProtocol

/// The outcome of `requestTemporaryFullAccuracyAuthorization` (the API is in the class body,
/// `open` as Apple's).
extension CLLocationManager {
    /// Runs on the callback context.
    func completeTemporaryFullAccuracyRequest(_ request: AccuracyRequestID, _ outcome: TemporaryFullAccuracyOutcome) {
        guard let completion = accuracyCompletions.removeValue(forKey: request) else { return }
        switch outcome {
        case .prompted: completion(nil)
        case .declined: completion(CLError(.promptDeclined))
        }
    }
}

/// The manager, carried into the continuation's closure, which runs at once on the caller's task.
struct UncheckedManager: @unchecked Sendable {
    let manager: CLLocationManager
    init(_ manager: CLLocationManager) { self.manager = manager }
}
