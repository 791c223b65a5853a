// swift-tools-version:6.1
import Foundation
import PackageDescription

// D-Bus (iio-sensor-proxy's compass, BlueZ's beacons) goes through libdbus-1. Its runtime library is on
// every Debian system with D-Bus, but its headers and `libdbus-1.so` come only with libdbus-1-dev, so
// the C module `CDBus` is built only where pkg-config would find `dbus-1.pc` (which that package
// installs beside the headers). A `.pc` file is the test because it is exactly what SwiftPM's
// `pkgConfig:` reads for the compiler and linker flags: where it exists the flags resolve, where it does
// not the module would fail to compile. Without it `LocationDBus` compiles its stand-in (every
// connection fails, saying that libdbus-1-dev is needed at build time) and the D-Bus tests skip, saying
// so; `swift build` and `swift test` work either way. `CORELOCATION_DBUS=0` forces the stand-in. SwiftPM
// caches this manifest's result: after installing libdbus-1-dev, `touch Package.swift` (or
// `swift package reset`) so that it is evaluated again.
let dbusHeadersInstalled: Bool = {
    let environment = ProcessInfo.processInfo.environment
    if environment["CORELOCATION_DBUS"] == "0" { return false }
    let files = FileManager.default
    var directories = (environment["PKG_CONFIG_PATH"] ?? "").split(separator: ":").map(String.init)
    directories += ["/usr/local/lib/pkgconfig", "/usr/local/share/pkgconfig", "/usr/lib/pkgconfig",
                    "/usr/lib64/pkgconfig", "/usr/share/pkgconfig"]
    // Debian's multiarch directories, e.g. /usr/lib/x86_64-linux-gnu/pkgconfig.
    for base in ["/usr/lib", "/usr/local/lib"] {
        for entry in (try? files.contentsOfDirectory(atPath: base)) ?? [] where entry.contains("-linux-") {
            directories.append("\(base)/\(entry)/pkgconfig")
        }
    }
    return directories.contains { files.fileExists(atPath: "\($0)/dbus-1.pc") }
}()

let package = Package(
    name: "swift-corelocation",
    platforms: [.macOS(.v15)],
    products: [
        // Apple's API: `import CoreLocation`.
        .library(name: "CoreLocation", targets: ["CoreLocation"]),
        // Deterministic harness for apps' own tests (virtual clock, scripted prompts, simulated sources).
        .library(name: "CoreLocationTesting", targets: ["CoreLocationTesting"]),
        .executable(name: "locationctl", targets: ["locationctl"]),
        .executable(name: "corelocation-bench", targets: ["corelocation-bench"]),
        .executable(name: "locationd", targets: ["locationd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // Pure geodesy (Karney's geodesic on WGS84), no Foundation.
        .target(name: "LocationGeodesy"),
        // The World Magnetic Model (WMM2025): the geomagnetic field, declination and inclination at a
        // point and date. Pure Swift, no Foundation, no allocation per evaluation.
        .target(name: "LocationGeomagnetism", dependencies: [
            "LocationNMEA",  // its CivilDate: calendar arithmetic without Foundation
            .product(name: "Logging", package: "swift-log"),
        ]),
        // NMEA 0183 decoding: bytes in, epochs out. No Foundation, no dependencies (fast, fuzzable).
        .target(name: "LocationNMEA"),
        // What every layer shares: samples, update requests, one stream-event type, client requests and
        // service events, authorization values, the connection and provider protocols. No dependencies:
        // the wire and the API build on it alone.
        .target(name: "LocationProtocol"),
        // Time (the engine loop: real and virtual) and small shared helpers.
        .target(name: "LocationCore"),
        // libdbus-1, the reference D-Bus library (a system library: headers from libdbus-1-dev).
        // Declared only where it can be built; see `dbusHeadersInstalled` above.
        // A small D-Bus client over libdbus-1: one connection thread, method calls, properties, signals
        // with match rules, variants decoded into Swift values. A stand-in that reports D-Bus as
        // unavailable where libdbus-1-dev was missing at build time.
        .target(name: "LocationDBus", dependencies: [
            "LocationCore",
            .product(name: "Logging", package: "swift-log"),
        ] + (dbusHeadersInstalled ? ["CDBus"] : [])),
        // Layer 1: sources of raw samples (simulation, GPX, NMEA, gpsd, IIO, iio-sensor-proxy, BlueZ).
        .target(name: "LocationSources", dependencies: [
            "LocationProtocol", "LocationCore", "LocationGeodesy", "LocationGeomagnetism", "LocationNMEA", "LocationDBus",
            "SeededRandom",  // simulated beacons' seeded signal
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Layer 2: the per-device engine (demand, filters, pausing, single requests).
        .target(name: "LocationEngine", dependencies: [
            "LocationProtocol", "LocationCore", "LocationSources", "LocationGeodesy",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Geofencing's pure core: a spatial index over every app's circular fences, the
        // accuracy-aware decision, fence states advanced fix by fix, and the accuracy fences demand.
        .target(name: "LocationGeofencing", dependencies: ["LocationProtocol", "LocationGeodesy"]),
        // Layer 3: per-app policy as pure rules and ports (authorization rules, settings changes,
        // approximate location, the store and prompter protocols, an in-memory store).
        .target(name: "LocationPolicy", dependencies: ["LocationProtocol", "LocationCore"]),
        // Layer 3's adapters: the SQLite store (GRDB), the terminal and policy-file prompters, the
        // app's identity from Info.plist and /proc.
        .target(name: "LocationPolicyAdapters", dependencies: [
            "LocationProtocol", "LocationCore", "LocationPolicy",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Location data at rest: AES-GCM sealed files (the daemon's last known location).
        .target(name: "LocationPersistence", dependencies: [
            "LocationProtocol", "LocationCore",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Layers 3–4: the service that enforces each app's authorization over the engine, and its
        // in-process transport.
        .target(name: "LocationAccess", dependencies: [
            "LocationGeofencing", "LocationPersistence",
            "LocationProtocol", "LocationCore", "LocationEngine", "LocationPolicy",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Layer 4: the bytes on locationd's socket (framing, explicit messages, binary fixes). Both ends.
        .target(name: "LocationWire", dependencies: [
            "LocationProtocol",
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // Layer 4: the client end of locationd's socket (apps, locationctl).
        .target(name: "LocationDaemonClient", dependencies: [
            "LocationProtocol", "LocationCore", "LocationWire",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Layer 4: the daemon: socket server, peer identity, per-user services, agents, settings.
        .target(name: "LocationDaemon", dependencies: [
            "LocationProtocol", "LocationCore", "LocationSources", "LocationEngine", "LocationPolicy",
            "LocationPolicyAdapters", "LocationAccess", "LocationWire", "LocationPersistence",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "locationd", dependencies: [
            "LocationDaemon", "LocationSources", "LocationPolicyAdapters", "LocationAccess", "LocationApproximation",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Places: the offline world database (countries, subdivisions, places, polygons) behind
        // CLGeocoder. One memory-mapped file, regenerated by scripts/places/build-places-db.sh (see
        // docs/places-database.md).
        .target(name: "LocationPlaces", dependencies: [
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Resources/places.bin")]),
        // Layer 3: approximate location as regions of the places database (sized by population, never
        // across a country or a locality), laid out by a per-device secret derived from the sealing key.
        .target(name: "LocationApproximation", dependencies: [
            "LocationPolicy", "LocationPlaces", "LocationGeodesy", "LocationCore", "LocationPersistence",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Which service this process talks to, and who the app is: locationd when discovery finds one,
        // else the engine, store and prompts in the process (the embedded default).
        .target(name: "LocationBootstrap", dependencies: [
            "LocationProtocol", "LocationCore", "LocationSources", "LocationEngine", "LocationPolicy",
            "LocationPolicyAdapters", "LocationAccess", "LocationDaemonClient", "LocationPersistence",
            "LocationApproximation",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Layer 5: Apple's API.
        .target(name: "CoreLocation", dependencies: [
            "LocationProtocol", "LocationCore", "LocationGeodesy", "LocationPlaces", "LocationBootstrap",
            "CAsyncMainRunLoop",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "CoreLocationTesting", dependencies: [
            "CoreLocation", "LocationProtocol", "LocationCore", "LocationBootstrap", "LocationSources",
            "LocationEngine", "LocationPolicy", "LocationAccess",
        ]),
        .executableTarget(name: "locationctl", dependencies: [
            "LocationProtocol", "LocationCore", "LocationGeodesy", "LocationNMEA", "LocationSources",
            "LocationEngine", "LocationPolicy", "LocationPolicyAdapters", "LocationDaemonClient", "LocationGeofencing", "LocationPlaces",
            "LocationApproximation", "LocationGeomagnetism",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // An async `main` serves the main actor from the main run loop, as on Darwin, so delegate
        // callbacks arrive after an `await` in top-level code (linked into every CoreLocation app).
        .target(name: "CAsyncMainRunLoop"),
        // What every test target shares: a temporary directory, `eventually`, a straight-line drive (not a product).
        .target(name: "TestSupport", dependencies: [
            "LocationCore", "LocationGeodesy", "LocationProtocol", "LocationSources", "SeededRandom",
        ], path: "Tests/TestSupport"),
        // Real recorded GPS tracks (Apache-2.0, from gpxpy) and the exact times they cross circles.
        .target(name: "TrackFixtures", dependencies: ["LocationGeodesy", "LocationSources"], path: "Tests/TrackFixtures",
                resources: [.copy("Tracks")]),
        // A seeded generator (SplitMix64) shared by the tests and the benchmarks.
        .target(name: "SeededRandom"),
        // epoll and eventfd for the benchmark's client (Glibc's Swift module leaves them out).
        .target(name: "CLinuxEpoll"),
        .executableTarget(name: "corelocation-bench", dependencies: [
            "CLinuxEpoll", "SeededRandom", "LocationProtocol", "LocationGeodesy", "LocationNMEA", "LocationCore",
            "LocationEngine", "LocationAccess", "LocationWire", "LocationPlaces", "LocationGeofencing",
            "LocationApproximation", "LocationPolicy", "LocationGeomagnetism", "LocationDaemonClient",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // A minimal iOS-style app (delegate + main run loop), used by the end-to-end tests.
        .executableTarget(name: "corelocation-example", dependencies: ["CoreLocation"]),
        // The same with an async `main`, for the main-thread callback tests.
        .executableTarget(name: "corelocation-async-example", dependencies: ["CoreLocation"]),

        .testTarget(name: "LocationGeodesyTests", dependencies: ["LocationGeodesy", "SeededRandom"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "LocationGeomagnetismTests", dependencies: [
            "LocationGeomagnetism", "SeededRandom",
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "LocationNMEATests", dependencies: ["LocationNMEA", "SeededRandom"], resources: [.copy("Fixtures")]),
        .testTarget(name: "LocationSourcesTests", dependencies: ["TestSupport", "TrackFixtures",
            "LocationSources", "LocationProtocol", "LocationCore", "LocationGeodesy", "LocationNMEA", "SeededRandom",
            "LocationGeomagnetism", "LocationDBus",
            "LocationEngine",  // the BlueZ source under the engine's beacon demand, end to end
            "LocationAccess", "LocationPolicy",  // and through the service, as an app's ranging and fences
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "LocationEngineTests", dependencies: [
            "LocationEngine", "LocationProtocol", "LocationSources", "LocationCore", "LocationGeodesy", "LocationGeomagnetism",
            "SeededRandom", "TrackFixtures",
        ]),
        .testTarget(name: "LocationGeofencingTests", dependencies: [
            "LocationGeofencing", "LocationProtocol", "LocationGeodesy", "SeededRandom", "LocationEngine",
            "LocationSources", "LocationCore",
        ]),
        .testTarget(name: "LocationPolicyTests", dependencies: ["TestSupport", 
            "LocationPolicy", "LocationPolicyAdapters", "LocationProtocol", "LocationCore",
            .product(name: "Logging", package: "swift-log"),
            // To craft corrupt, foreign and future store files.
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "LocationPlacesTests", dependencies: ["TestSupport", "LocationPlaces", "SeededRandom"]),
        .testTarget(name: "LocationApproximationTests", dependencies: [
            "LocationApproximation", "LocationPolicy", "LocationPlaces", "LocationGeodesy", "LocationPersistence",
            "SeededRandom", "TestSupport",
        ]),
        .testTarget(name: "LocationPersistenceTests", dependencies: ["TestSupport", "LocationPersistence", "LocationProtocol", "LocationCore"]),
        .testTarget(name: "LocationWireTests", dependencies: [
            "LocationWire", "LocationProtocol",
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .testTarget(name: "LocationDaemonTests", dependencies: ["LocationDaemonClient", "TestSupport", "CoreLocation", "LocationBootstrap",
            "LocationDaemon", "LocationWire", "LocationProtocol", "LocationCore", "LocationEngine",
            "LocationPolicy", "LocationPolicyAdapters", "LocationAccess", "LocationSources", "LocationPersistence",
            "LocationGeodesy", "LocationGeomagnetism",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "LocationDaemonClientTests", dependencies: ["TestSupport", 
            "LocationDaemonClient", "LocationWire", "LocationProtocol", "LocationCore",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "CoreLocationTests", dependencies: ["TestSupport", 
            "CoreLocation", "CoreLocationTesting", "LocationProtocol", "LocationCore", "LocationBootstrap",
            "LocationEngine", "LocationPolicy", "LocationAccess", "LocationSources", "LocationPlaces", "LocationGeodesy",
            "TrackFixtures", "LocationApproximation", "LocationPersistence", "LocationGeomagnetism",
        ]),
        .testTarget(name: "locationctlTests", dependencies: ["LocationEngine", "LocationSources", "TestSupport", "TrackFixtures",
            "locationctl", "locationd", "corelocation-example", "corelocation-async-example",
            "LocationProtocol", "LocationCore", "LocationGeodesy",
            "LocationPolicy", "LocationPolicyAdapters", "LocationDaemonClient", "LocationPlaces", "LocationApproximation",
            "LocationPersistence",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)

if dbusHeadersInstalled {
    package.targets.append(.systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]))
}

// Every module a file uses must be imported by that file, and so declared above (SE-0444): the
// compiler, not luck in build order, keeps the dependency graph true. `scripts/check-imports.py`
// checks the declarations against the imports.
for target in package.targets where target.type != .system && target.name != "CLinuxEpoll" && target.name != "CAsyncMainRunLoop" {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
