// A typical iOS-style Core Location client, as a Linux command-line app: the delegate pattern of
// Apple's "Configuring your app to use location services", run on the main run loop.
//
//     corelocation-example [COUNT] [--timestamps] [--threads] [--spin-in-callback]
//                          [--dispatch-main] [--run-until] [--in-main-block | --in-main-actor-task]
//     corelocation-example --reverse LAT LON [--dispatch-main]
//     corelocation-example --regions [--monitor LAT,LON,RADIUS,ID]…
//     corelocation-example --service heading|significant|visits|ranging:UUID
//
// prints COUNT locations (default 5) as lines, then exits (`--timestamps` adds each location's
// timestamp, seconds since 1970). With `--reverse` it reverse-geocodes the coordinate with
// `CLGeocoder` instead and prints the placemark (or the error code) and whether the completion
// handler ran on the main thread. With `--regions` it monitors regions instead (`RegionPrinter`),
// with `--service` it runs another service until stopped (`ServicePrinter`).
//
// The main thread serves callbacks the ways apps do, and Linux supports them all:
// `RunLoop.main.run()` (the default), `dispatchMain()` (`--dispatch-main`), or
// `RunLoop.main.run(until:)` in a loop (`--run-until`). `--in-main-block` creates the manager (and
// spins, with `--run-until`) inside a `DispatchQueue.main.async` block, `--in-main-actor-task`
// inside a `@MainActor` task. `--threads` ends each line with where the callback ran
// (`on main-thread`, `on main-queue` or `on other-thread`); `--spin-in-callback` spins the main run
// loop inside the first location callback until the next location arrives (at most 10 s), and marks
// callbacks that arrive inside a running one `nested`.
//
// It needs an Info.plist with NSLocationWhenInUseUsageDescription next to the executable or in
// CORELOCATION_INFO_PLIST, and an answer to the authorization prompt (a terminal, a prompt policy,
// or `locationctl grant`).
import CoreLocation

final class LocationPrinter: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()
    var remaining: Int
    let showsTimestamps: Bool
    let showsThreads: Bool
    let spinsInCallback: Bool
    /// How many location callbacks are running (more than one: delivered inside a spinning one).
    var running = 0
    var hasSpun = false

    init(count: Int, showsTimestamps: Bool, showsThreads: Bool, spinsInCallback: Bool) {
        remaining = count
        self.showsTimestamps = showsTimestamps
        self.showsThreads = showsThreads
        self.spinsInCallback = spinsInCallback
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
        running += 1
        defer { running -= 1 }
        for location in locations where remaining > 0 {
            remaining -= 1
            var line = String(format: "location %.6f %.6f %.1f", location.coordinate.latitude,
                              location.coordinate.longitude, location.horizontalAccuracy)
            if showsTimestamps { line += String(format: " %.3f", location.timestamp.timeIntervalSince1970) }
            if running > 1 { line += " nested" }
            say(line)
        }
        if remaining == 0 { exit(0) }
        if spinsInCallback, !hasSpun {
            hasSpun = true
            let before = remaining, end = Date().addingTimeInterval(10)
            while remaining == before, Date() < end { RunLoop.main.run(until: Date().addingTimeInterval(0.1)) }
        }
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        if let error = error as? CLError, error.code == .denied {
            say("denied")
            exit(2)
        }
        say("error \((error as NSError).code)")
    }

    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + (showsThreads ? " on \(currentThread())" : "") + "\n").utf8))
    }
}

/// Marks the main queue, whose blocks run off the main thread under `dispatchMain()`.
let mainQueueKey = DispatchSpecificKey<Void>()
DispatchQueue.main.setSpecific(key: mainQueueKey, value: ())

func currentThread() -> String {
    if Thread.isMainThread { return "main-thread" }
    return DispatchQueue.getSpecific(key: mainQueueKey) != nil ? "main-queue" : "other-thread"
}

/// Spins the main run loop the way apps that poll do, until the printer exits the process.
func spinMainRunLoop() -> Never {
    while true { RunLoop.main.run(until: Date().addingTimeInterval(0.1)) }
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
let spinsRunUntil = arguments.contains("--run-until")
var printer: LocationPrinter?
var regionPrinter: RegionPrinter?
var servicePrinter: ServicePrinter?

@MainActor func startPrinting() {
    printer = LocationPrinter(
        count: arguments.compactMap { Int($0) }.first ?? 5, showsTimestamps: arguments.contains("--timestamps"),
        showsThreads: arguments.contains("--threads"), spinsInCallback: arguments.contains("--spin-in-callback"))
    if spinsRunUntil { spinMainRunLoop() }
}

if arguments.contains("--regions") {
    let values = zip(arguments, arguments.dropFirst()).filter { $0.0 == "--monitor" }.map(\.1)
    let regions = values.compactMap(RegionPrinter.region)
    guard regions.count == values.count else {
        FileHandle.standardError.write(Data("usage: corelocation-example --regions [--monitor LAT,LON,RADIUS,ID]…\n".utf8))
        exit(64)
    }
    regionPrinter = RegionPrinter(regions: regions)
} else if let flag = arguments.firstIndex(of: "--service") {
    guard flag + 1 < arguments.endIndex, let service = ServicePrinter.Service(arguments[flag + 1]) else {
        FileHandle.standardError.write(Data("usage: corelocation-example --service heading|significant|visits|ranging:UUID\n".utf8))
        exit(64)
    }
    servicePrinter = ServicePrinter(service: service)
} else if let flag = arguments.firstIndex(of: "--reverse") {
    reverseGeocode(Array(arguments[(flag + 1)...].filter { !$0.hasPrefix("--") }))
} else if arguments.contains("--in-main-block") {
    DispatchQueue.main.async { MainActor.assumeIsolated { startPrinting() } }
} else if arguments.contains("--in-main-actor-task") {
    Task { @MainActor in startPrinting() }
} else {
    startPrinting()
}
if arguments.contains("--dispatch-main") {
    dispatchMain()
} else {
    RunLoop.main.run()
}
