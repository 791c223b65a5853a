import CoreLocation
import Foundation

/// A delegate that records every callback, and the thread it arrived on.
final class RecordingDelegate: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    enum Event: Equatable {
        case authorization(CLAuthorizationStatus, CLAccuracyAuthorization)
        case legacyAuthorization(CLAuthorizationStatus)
        case locations(Int)
        case failure(CLError.Code)
        case paused
        case resumed
    }

    private(set) var events: [Event] = []
    private(set) var locations: [CLLocation] = []
    private(set) var threads: Set<ObjectIdentifier> = []

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        note(.authorization(manager.authorizationStatus, manager.accuracyAuthorization))
    }

    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {
        note(.legacyAuthorization(status))
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        self.locations += locations
        note(.locations(locations.count))
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        if let error = error as? CLError { note(.failure(error.code)) }
    }

    func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) { note(.paused) }
    func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager) { note(.resumed) }

    private func note(_ event: Event) {
        events.append(event)
        threads.insert(ObjectIdentifier(Thread.current))
    }

    var authorizationEvents: [Event] {
        events.filter { if case .authorization = $0 { true } else { false } }
    }

    var failures: [CLError.Code] {
        events.compactMap { if case .failure(let code) = $0 { code } else { nil } }
    }

    func count(_ event: Event) -> Int { events.filter { $0 == event }.count }

    func clear() {
        events.removeAll()
        locations.removeAll()
    }
}
