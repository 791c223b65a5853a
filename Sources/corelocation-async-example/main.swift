// An app whose `main` is async: it creates its location manager on the main actor after an
// `await`, then polls the main run loop with `RunLoop.main.run(until:)`, as apps ported from
// Apple's platforms do.
//
//     corelocation-async-example [COUNT] [--main-actor-task]
//
// prints where the code after the `await` runs, then the authorization and COUNT locations
// (default 3), each line ending with where its callback ran (`on main-thread`, `on main-queue` or
// `on other-thread`), then exits. `--main-actor-task` does the same inside a `@MainActor` task
// that the top-level code awaits. It needs what `corelocation-example` needs (an Info.plist and an
// answer to the authorization prompt).
import CoreLocation

/// Marks the main queue, whose blocks run off the main thread under `dispatchMain()`.
let mainQueueKey = DispatchSpecificKey<Void>()
DispatchQueue.main.setSpecific(key: mainQueueKey, value: ())

func say(_ line: String) {
    let thread = Thread.isMainThread ? "main-thread"
        : DispatchQueue.getSpecific(key: mainQueueKey) != nil ? "main-queue" : "other-thread"
    FileHandle.standardOutput.write(Data("\(line) on \(thread)\n".utf8))
}

final class LocationPrinter: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()
    var remaining: Int

    init(count: Int) {
        remaining = count
        super.init()
        manager.delegate = self
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        say("authorization \(manager.authorizationStatus.rawValue) accuracy \(manager.accuracyAuthorization.rawValue)")
        switch manager.authorizationStatus {
        case .notDetermined: manager.requestWhenInUseAuthorization()
        case .authorizedWhenInUse, .authorizedAlways: manager.startUpdatingLocation()
        default: exit(2)
        }
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        for location in locations where remaining > 0 {
            remaining -= 1
            say(String(format: "location %.6f %.6f", location.coordinate.latitude, location.coordinate.longitude))
        }
        if remaining == 0 { exit(0) }
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        say("error \((error as NSError).code)")
    }
}

/// Creates the printer and polls the main run loop until the printer exits the process.
@MainActor func printLocations(count: Int) -> Never {
    say("after-await")
    let printer = LocationPrinter(count: count)
    while true {
        withExtendedLifetime(printer) { RunLoop.main.run(until: Date().addingTimeInterval(0.1)) }
    }
}

let arguments = CommandLine.arguments.dropFirst()
let count = arguments.compactMap { Int($0) }.first ?? 3
if arguments.contains("--main-actor-task") {
    let task = Task { @MainActor in
        await Task.yield()
        printLocations(count: count)
    }
    await task.value
} else {
    try await Task.sleep(for: .milliseconds(10))
    printLocations(count: count)
}
