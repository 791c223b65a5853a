import CoreLocation

/// `--regions [--monitor LAT,LON,RADIUS,ID]…`: region monitoring, the iOS way. Prints the regions
/// the app monitors (kept by the service across launches), starts monitoring the ones given, and
/// prints every callback as a line until it is stopped:
///
///     monitored ID,ID…
///     started ID | enter ID | exit ID | state ID inside|outside|unknown | failed ID CODE
final class RegionPrinter: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()
    let regions: [CLCircularRegion]

    init(regions: [CLCircularRegion]) {
        self.regions = regions
        super.init()
        manager.delegate = self
        let monitored = manager.monitoredRegions.map(\.identifier).sorted()
        say("monitored \(monitored.joined(separator: ","))")
        for region in regions { manager.startMonitoring(for: region) }
    }

    /// Parses `LAT,LON,RADIUS,ID`.
    static func region(_ text: String) -> CLCircularRegion? {
        let parts = text.split(separator: ",", maxSplits: 3).map(String.init)
        guard parts.count == 4, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              let radius = Double(parts[2]) else { return nil }
        return CLCircularRegion(center: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
                                radius: radius, identifier: parts[3])
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        say("authorization \(manager.authorizationStatus.rawValue) accuracy \(manager.accuracyAuthorization.rawValue)")
        if manager.authorizationStatus == .notDetermined { manager.requestAlwaysAuthorization() }
    }

    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) { say("started \(region.identifier)") }
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) { say("enter \(region.identifier)") }
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) { say("exit \(region.identifier)") }

    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        let name = switch state {
        case .inside: "inside"
        case .outside: "outside"
        case .unknown: "unknown"
        }
        say("state \(region.identifier) \(name)")
    }

    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
        say("failed \(region?.identifier ?? "-") \((error as NSError).code)")
    }

    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
