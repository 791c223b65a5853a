// A typical iOS-style Core Location client, as a Linux command-line app: the delegate pattern of
// Apple's "Configuring your app to use location services", run on the main run loop.
//
//     corelocation-example [COUNT] [--dispatch-main] [--timestamps]
//     corelocation-example --reverse LAT LON [--dispatch-main]
//
// prints COUNT locations (default 5) as lines, then exits (`--timestamps` adds each location's
// timestamp, seconds since 1970). With `--reverse` it reverse-geocodes the coordinate with
// `CLGeocoder` instead and prints the placemark (or the error code) and whether the completion
// handler ran on the main thread. The main thread serves callbacks with
// `RunLoop.main.run()`, or with `dispatchMain()` when asked: Linux supports both.
//
// It needs an Info.plist with NSLocationWhenInUseUsageDescription next to the executable or in
// CORELOCATION_INFO_PLIST, and an answer to the authorization prompt (a terminal, a prompt policy,
// or `locationctl grant`).
import CoreLocation

final class LocationPrinter: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()
    var remaining: Int
    let showsTimestamps: Bool

    init(count: Int, showsTimestamps: Bool) {
        remaining = count
        self.showsTimestamps = showsTimestamps
        super.init()
        manager.delegate = self
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        say("authorization \(manager.authorizationStatus.rawValue) accuracy \(manager.accuracyAuthorization.rawValue)")
        switch manager.authorizationStatus {
        case .notDetermined:
            manager.requestWhenInUseAuthorization()
        case .authorizedWhenInUse, .authorizedAlways:
            manager.startUpdatingLocation()
        case .denied, .restricted:
            say("not authorized")
            exit(2)
        @unknown default:
            break
        }
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        for location in locations where remaining > 0 {
            remaining -= 1
            var line = String(format: "location %.6f %.6f %.1f", location.coordinate.latitude,
                              location.coordinate.longitude, location.horizontalAccuracy)
            if showsTimestamps { line += String(format: " %.3f", location.timestamp.timeIntervalSince1970) }
            say(line)
        }
        if remaining == 0 { exit(0) }
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        if let error = error as? CLError, error.code == .denied {
            say("denied")
            exit(2)
        }
        say("error \((error as NSError).code)")
    }

    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// `--reverse LAT LON`: one reverse geocoding request; the handler prints and exits.
func reverseGeocode(_ values: [String]) {
    guard values.count == 2, let latitude = Double(values[0]), let longitude = Double(values[1]) else {
        FileHandle.standardError.write(Data("usage: corelocation-example --reverse LAT LON\n".utf8))
        exit(64)
    }
    CLGeocoder().reverseGeocodeLocation(CLLocation(latitude: latitude, longitude: longitude)) { placemarks, error in
        let thread = "main-thread \(Thread.isMainThread)"
        if let placemark = placemarks?.first {
            let fields = [placemark.name, placemark.locality, placemark.isoCountryCode, placemark.timeZone?.identifier]
            print("placemark " + fields.map { $0 ?? "-" }.joined(separator: "|") + " " + thread)
        } else {
            print("error \(error.map { ($0 as NSError).code } ?? -1) \(thread)")
        }
        exit(0)
    }
}

let arguments = CommandLine.arguments.dropFirst()
var printer: LocationPrinter?
if let flag = arguments.firstIndex(of: "--reverse") {
    reverseGeocode(Array(arguments[(flag + 1)...].filter { !$0.hasPrefix("--") }))
} else {
    let count = arguments.compactMap { Int($0) }.first ?? 5
    printer = LocationPrinter(count: count, showsTimestamps: arguments.contains("--timestamps"))
}
if arguments.contains("--dispatch-main") {
    dispatchMain()
} else {
    RunLoop.main.run()
}
