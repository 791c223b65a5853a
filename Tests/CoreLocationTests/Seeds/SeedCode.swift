// App code as iOS developers write it, from Apple's articles and from developers' own notes on
// them, compiled unchanged on Linux. Only `import CoreLocation` is imported here (no Foundation,
// no test helpers): Apple's module re-exports Foundation, and so does ours.
//
// Two fixes to the code as written, because it is not valid Swift anywhere: the view controller's
// `else` block lacked its closing brace, and its empty `case .denied:` gets `break` (Swift requires
// a statement). App-specific functions the code calls without defining (`enableLocationFeatures()`
// …) are defined below as recorders.
import CoreLocation

// From Apple's "Configuring your app to use location services".
class LocationDataManager: NSObject, CLLocationManagerDelegate {
    var locationManager = CLLocationManager()

    override init() {
        super.init()
        locationManager.delegate = self
    }

    // 위치와 관련된 프로퍼티와 델리게이트 메서드
    var featuresEnabled: Bool?
    var lastLocation: CLLocation?
    var deniedErrors = 0
    var otherErrors = 0

    func enableLocationFeatures() { featuresEnabled = true }
    func disableLocationFeatures() { featuresEnabled = false }

    // From Apple's "Requesting authorization to use location services".
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        switch manager.authorizationStatus {
        case .authorizedWhenInUse:  // Location services are available.
            enableLocationFeatures()
            break

        case .restricted, .denied:  // Location services currently unavailable.
            disableLocationFeatures()
            break

        case .notDetermined:        // Authorization not determined yet.
           manager.requestWhenInUseAuthorization()
            break

        default:
            break
        }
    }

    // Apple's "Using the standard location service", Listing 1: the most recent location update.
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        let lastLocation = locations.last!
        // Do something with the location.
        self.lastLocation = lastLocation
    }

    // Apple's "Using the standard location service", Listing 2: stopping services when denied.
    func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
        if let error = error as? CLError, error.code == .denied {
            // Location updates are not authorized.
            manager.stopUpdatingLocation()
            deniedErrors += 1
            return
        }
        // Notify the user of any errors.
        otherErrors += 1
    }
}

// A developer's view controller: the device-wide check, then the app's status before and after iOS 14.
class LocationViewController: NSObject {
    let locationManager = CLLocationManager()
    var log: [String] = []

    func print(_ items: Any...) { log.append(items.map { "\($0)" }.joined(separator: " ")) }

    func checkDeviceLocationAuthorization(){
        if CLLocationManager.locationServicesEnabled() {
            checkCurrentLocationAuthorization()
        }else{
            print("위치 서비스가 꺼져 있어서, 위치 권한 요청을 할 수 없어요!")
        }
    }

    func checkCurrentLocationAuthorization(){
        var status: CLAuthorizationStatus

        if #available(iOS 14.0, *){
            status = locationManager.authorizationStatus
        } else {
            status = CLLocationManager.authorizationStatus()
        }

        switch status {
        case .notDetermined:
            locationManager.desiredAccuracy = kCLLocationAccuracyBest
            locationManager.requestWhenInUseAuthorization()
        case .denied:
            break
        case .authorizedWhenInUse:
            locationManager.startUpdatingLocation()
        default:
            print(status)
        }
    }
}

extension LocationViewController: CLLocationManagerDelegate{
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        print("location", locations.count)
        locationManager.stopUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        print("error", error)
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        checkDeviceLocationAuthorization()
    }

    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {
        print("legacy", status.rawValue)
    }
}

// From Apple's "Getting the current location of a device": the live-updates loop.
struct LiveUpdatesSeed {
    var processed: [CLLocation] = []
    var deniedSeen = false
    var otherStates = 0

    mutating func run(limit: Int) async throws {
        // Obtain an asynchronous stream of updates.
        let stream = CLLocationUpdate.liveUpdates()

        // Iterate over the stream and handle incoming updates.
        for try await update in stream {
            if update.location != nil {
                // Process the location.
                processed.append(update.location!)
            } else if update.authorizationDenied {
                // Process the authorization denied state change.
                deniedSeen = true
                return
            } else {
                // Process other state changes.
                otherStates += 1
            }
            if processed.count >= limit { return }
        }
    }
}

// From Apple's "Getting the current location of a device": the heading availability check.
func compassFeaturesAvailable(_ locationManager: CLLocationManager) -> Bool {
    // Check if heading data is available.
    if CLLocationManager.headingAvailable() {
        return true
    } else {
        // Disable compass features.
        return false
    }
}

// From Apple's "Monitoring the user's proximity to geographic regions": the `CLLocationManager`
// form. (The region's radius is the largest the device allows, as in the article.)
class RegionMonitoringSeed: NSObject, CLLocationManagerDelegate {
    let locationManager = CLLocationManager()
    var triggered: [String] = []

    override init() {
        super.init()
        locationManager.delegate = self
    }

    func monitorRegionAtLocation(center: CLLocationCoordinate2D, identifier: String) {
        // Make sure the devices supports region monitoring.
        if CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self) {
            // Register the region.
            let maxDistance = locationManager.maximumRegionMonitoringDistance
            let region = CLCircularRegion(center: center,
                                          radius: maxDistance, identifier: identifier)
            region.notifyOnEntry = true
            region.notifyOnExit = false

            locationManager.startMonitoring(for: region)
        }
    }

    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        if let region = region as? CLCircularRegion {
            let identifier = region.identifier
            triggerTaskAssociatedWithRegionIdentifier(regionID: identifier)
        }
    }

    func triggerTaskAssociatedWithRegionIdentifier(regionID: String) { triggered.append(regionID) }
}

// From the same article: the `CLMonitor` form, in the Swift spelling of its types (the article's
// sample names the Objective-C class `CLCircularGeographicCondition` and does not `await` the add,
// which does not compile against Apple's SDK either).
func monitorApplePark(center: CLLocationCoordinate2D, report: @escaping @Sendable (String) -> Void) async throws {
    let monitor = await CLMonitor("monitorName")
    await monitor.add(CLMonitor.CircularGeographicCondition(center: center, radius: 200), identifier: "ApplePark")
    for try await event in monitor.events {
        switch event.state {
        case .satisfied:
            report("entered \(event.identifier)")
        case .unsatisfied:
            report("left \(event.identifier)")
        default:
            break
        }
    }
}
