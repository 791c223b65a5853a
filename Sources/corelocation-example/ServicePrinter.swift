import CoreLocation

/// `--service heading|significant|visits|ranging:UUID`: one of the other location services, the
/// iOS way, once the app is authorized (it asks for Always). Prints every callback as a line until
/// it is stopped (the soak benchmark runs it beside the standard service and regions):
///
///     heading MAGNETIC TRUE ACCURACY TIMESTAMP | location LAT LON ACCURACY TIMESTAMP
///     visit ARRIVAL DEPARTURE | beacons COUNT | error CODE
///
/// Timestamps are seconds since 1970; a visit's unknown time is `-`.
final class ServicePrinter: NSObject, CLLocationManagerDelegate {
    enum Service {
        case heading, significant, visits
        case ranging(UUID)

        init?(_ text: String) {
            switch text {
            case "heading": self = .heading
            case "significant": self = .significant
            case "visits": self = .visits
            default:
                guard text.hasPrefix("ranging:"), let uuid = UUID(uuidString: String(text.dropFirst("ranging:".count))) else {
                    return nil
                }
                self = .ranging(uuid)
            }
        }
    }

    let manager = CLLocationManager()
    let service: Service
    private var started = false

    init(service: Service) {
        self.service = service
        super.init()
        manager.delegate = self
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        say("authorization \(manager.authorizationStatus.rawValue) accuracy \(manager.accuracyAuthorization.rawValue)")
        switch manager.authorizationStatus {
        case .notDetermined:
            manager.requestAlwaysAuthorization()
        case .authorizedAlways, .authorizedWhenInUse:
            guard !started else { return }
            started = true
            switch service {
            case .heading: manager.startUpdatingHeading()
            case .significant: manager.startMonitoringSignificantLocationChanges()
            case .visits: manager.startMonitoringVisits()
            case .ranging(let uuid): manager.startRangingBeacons(satisfying: CLBeaconIdentityConstraint(uuid: uuid))
            }
        default:
            say("not authorized")
            exit(2)
        }
    }

    func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading) {
        say(String(format: "heading %.2f %.2f %.1f %.3f", newHeading.magneticHeading, newHeading.trueHeading,
                   newHeading.headingAccuracy, newHeading.timestamp.timeIntervalSince1970))
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        for location in locations {
            say(String(format: "location %.6f %.6f %.1f %.3f", location.coordinate.latitude, location.coordinate.longitude,
                       location.horizontalAccuracy, location.timestamp.timeIntervalSince1970))
        }
    }

    func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
        func time(_ date: Date) -> String {
            date == .distantPast || date == .distantFuture ? "-" : String(format: "%.3f", date.timeIntervalSince1970)
        }
        say("visit \(time(visit.arrivalDate)) \(time(visit.departureDate))")
    }

    func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        say("beacons \(beacons.count)")
    }

    func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {
        say("error \((error as NSError).code)")
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        say("error \((error as NSError).code)")
    }

    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
