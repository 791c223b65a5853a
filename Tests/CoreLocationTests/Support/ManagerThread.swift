import CoreLocation
import Foundation
import LocationBootstrap
import LocationCore

/// A delegate whose records may be read from any thread while the manager's thread writes them.
final class ConcurrentRecordingDelegate: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    struct Location: Sendable {
        var latitude: Double
        var longitude: Double
        var timestamp: Date
        var horizontalAccuracy: Double
        var received: Date
    }

    private let recorded = Locked<(locations: [Location], failures: [(Date, CLError.Code)], authorizations: [CLAuthorizationStatus])>(([], [], []))

    var locations: [Location] { recorded.withLock { $0.locations } }
    var failures: [(Date, CLError.Code)] { recorded.withLock { $0.failures } }
    var authorizations: [CLAuthorizationStatus] { recorded.withLock { $0.authorizations } }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        let status = manager.authorizationStatus
        recorded.withLock { $0.authorizations.append(status) }
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        let now = Date()
        let values = locations.map {
            Location(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude, timestamp: $0.timestamp,
                     horizontalAccuracy: $0.horizontalAccuracy, received: now)
        }
        recorded.withLock { $0.locations += values }
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        let code = (error as? CLError)?.code ?? .locationUnknown
        recorded.withLock { $0.failures.append((Date(), code)) }
    }
}

/// A `CLLocationManager` living on a thread of its own that runs its run loop, as an app's would,
/// driven by the test from outside.
final class ManagerThread: @unchecked Sendable {
    enum Command: Sendable { case startUpdating, stopUpdating }

    let delegate = ConcurrentRecordingDelegate()
    private let commands = Locked<[Command]>([])
    private let finished = Locked(false)
    private let done = DispatchSemaphore(value: 0)

    init(system: LocationSystem, configure: @escaping @Sendable (CLLocationManager) -> Void = { _ in }) {
        let thread = Thread { [delegate, commands, finished, done] in
            LocationSystem.$override.withValue(system) {
                let manager = CLLocationManager()
                manager.delegate = delegate
                configure(manager)
                while !finished.withLock({ $0 }) {
                    for command in commands.withLock({ list in defer { list.removeAll() }; return list }) {
                        switch command {
                        case .startUpdating: manager.startUpdatingLocation()
                        case .stopUpdating: manager.stopUpdatingLocation()
                        }
                    }
                    _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.02))
                }
                manager.stopUpdatingLocation()
                withExtendedLifetime(manager) {}
            }
            done.signal()
        }
        thread.start()
    }

    func send(_ command: Command) { commands.withLock { $0.append(command) } }

    /// Stops the manager and waits for its thread to end.
    func finish() {
        finished.withLock { $0 = true }
        _ = done.wait(timeout: .now() + 10)
    }
}
