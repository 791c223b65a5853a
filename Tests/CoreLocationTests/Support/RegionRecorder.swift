import CoreLocation
import Foundation

/// Records region monitoring callbacks, with the virtual time each arrived at.
final class RegionRecorder: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    enum Event: Equatable {
        case started(String)
        case entered(String)
        case exited(String)
        case determined(String, CLRegionState)
        case failed(String?, CLError.Code)
    }

    private(set) var events: [Event] = []
    private(set) var times: [Date] = []
    private let clock: () -> Date

    init(clock: @escaping () -> Date = Date.init) {
        self.clock = clock
    }

    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) { note(.started(region.identifier)) }
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) { note(.entered(region.identifier)) }
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) { note(.exited(region.identifier)) }
    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        note(.determined(region.identifier, state))
    }
    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
        note(.failed(region?.identifier, (error as? CLError)?.code ?? .locationUnknown))
    }

    private func note(_ event: Event) {
        events.append(event)
        times.append(clock())
    }

    /// When the first event equal to `event` arrived.
    func time(of event: Event) -> Date? { events.firstIndex(of: event).map { times[$0] } }
    func count(_ event: Event) -> Int { events.filter { $0 == event }.count }
    var crossings: [Event] {
        events.filter { if case .entered = $0 { true } else if case .exited = $0 { true } else { false } }
    }
}
