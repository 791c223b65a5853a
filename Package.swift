// swift-tools-version:6.1
import PackageDescription

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
        // Layer 0: pure geodesy (Karney's geodesic on WGS84), no Foundation.
        .target(name: "LocationGeodesy"),
        // NMEA 0183 decoding: bytes in, epochs out. No Foundation, no dependencies (fast, fuzzable).
        .target(name: "LocationNMEA"),
        // What every layer shares: samples, requests, stream and service events, authorization values,
        // the connection and provider protocols. No dependencies: the wire and the API build on it alone.
        .target(name: "LocationProtocol"),
        // Time: the engine loop (real and virtual), and small shared helpers.
        .target(name: "LocationCore", dependencies: [
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Layer 1: sources of raw samples (fixed point, GPX, simulated routes).
        .target(name: "LocationSources", dependencies: [
            "LocationProtocol", "LocationCore", "LocationGeodesy", "LocationNMEA",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Layer 2: the per-device engine (demand, filters, pausing, single requests).
        .target(name: "LocationEngine", dependencies: [
            "LocationProtocol", "LocationCore", "LocationSources", "LocationGeodesy",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Layer 3: per-app policy (identity, authorization store, prompts, approximate location).
        .target(name: "LocationPolicy", dependencies: [
            "LocationProtocol", "LocationCore",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Location data at rest: AES-GCM sealed files (last known location, queued events).
        .target(name: "LocationPersistence", dependencies: [
            "LocationProtocol", "LocationCore",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Layer 4: the service and its in-process transport (locationd's socket is LocationWire/LocationDaemonClient).
        .target(name: "LocationService", dependencies: [
            "LocationProtocol", "LocationCore", "LocationSources", "LocationEngine", "LocationPolicy",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Layer 4: the bytes on locationd's socket (framing, messages, binary fixes). Both ends use it.
        .target(name: "LocationWire", dependencies: [
            "LocationProtocol",
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // Layer 4: the client end of locationd's socket (apps, locationctl).
        .target(name: "LocationDaemonClient", dependencies: ["LocationProtocol", 
            "LocationCore", "LocationEngine", "LocationPolicy", "LocationService", "LocationWire",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Layer 4: the daemon: socket server, peer identity, per-user services, agents, settings.
        .target(name: "LocationDaemon", dependencies: ["LocationProtocol", 
            "LocationCore", "LocationSources", "LocationEngine", "LocationPolicy", "LocationService",
            "LocationWire", "LocationPersistence",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "locationd", dependencies: [
            "LocationDaemon", "LocationCore", "LocationSources", "LocationPolicy",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Places: the offline world database (countries, subdivisions, places, polygons) behind
        // CLGeocoder. One memory-mapped file, regenerated by
        // scripts/places/build-places-db.sh (see docs/places-database.md).
        .target(name: "LocationPlaces", dependencies: [
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Resources/places.bin")]),
        // Layer 5: Apple's API.
        .target(name: "CoreLocation", dependencies: ["LocationEngine", "LocationProtocol", 
            "LocationCore", "LocationGeodesy", "LocationService", "LocationPolicy", "LocationSources",
            "LocationDaemonClient", "LocationPlaces",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "CoreLocationTesting", dependencies: ["LocationProtocol", 
            "CoreLocation", "LocationCore", "LocationService", "LocationPolicy", "LocationSources", "LocationEngine",
        ]),
        .executableTarget(name: "locationctl", dependencies: ["LocationGeodesy", "LocationProtocol", 
            "LocationCore", "LocationSources", "LocationNMEA", "LocationEngine", "LocationPolicy", "LocationService",
            "LocationDaemonClient", "LocationPlaces",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // A seeded generator (SplitMix64) shared by the tests and the benchmarks.
        .target(name: "SeededRandom"),
        // epoll and eventfd for the benchmark's client (Glibc's Swift module leaves them out).
        .target(name: "CLinuxEpoll"),
        .executableTarget(name: "corelocation-bench", dependencies: ["LocationProtocol", 
            "CLinuxEpoll", "SeededRandom", "LocationGeodesy", "LocationNMEA", "LocationCore", "LocationEngine",
            "LocationService", "LocationWire", "LocationPlaces",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // A minimal iOS-style app (delegate + main run loop), used by the end-to-end tests.
        .executableTarget(name: "corelocation-example", dependencies: ["CoreLocation"]),

        .testTarget(name: "LocationGeodesyTests", dependencies: ["LocationGeodesy", "SeededRandom"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "LocationNMEATests", dependencies: ["LocationNMEA", "SeededRandom"], resources: [.copy("Fixtures")]),
        .testTarget(name: "LocationSourcesTests", dependencies: ["LocationNMEA", "LocationProtocol", "LocationSources", "LocationCore", "LocationGeodesy", "SeededRandom"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "LocationEngineTests", dependencies: ["LocationGeodesy", "LocationProtocol", "LocationEngine", "LocationSources", "LocationCore"]),
        .testTarget(name: "LocationPolicyTests", dependencies: ["LocationProtocol", 
            "LocationPolicy", "LocationCore", .product(name: "Logging", package: "swift-log"),
            // To craft corrupt, foreign and future store files.
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "LocationPlacesTests", dependencies: ["LocationPlaces", "SeededRandom"]),
        .testTarget(name: "LocationPersistenceTests", dependencies: ["LocationProtocol", "LocationPersistence", "LocationCore"]),
        .testTarget(name: "LocationWireTests", dependencies: ["LocationProtocol", 
            "LocationWire", "LocationCore", "LocationEngine", "LocationPolicy", "LocationService",
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .testTarget(name: "LocationDaemonTests", dependencies: ["LocationProtocol", 
            "LocationDaemon", "LocationDaemonClient", "LocationWire", "LocationCore", "LocationEngine",
            "LocationPolicy", "LocationService", "LocationSources", "LocationPersistence",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "LocationDaemonClientTests", dependencies: ["LocationProtocol", 
            "LocationDaemonClient", "LocationWire", "LocationCore", "LocationEngine", "LocationPolicy", "LocationService",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "CoreLocationTests", dependencies: ["LocationProtocol", 
            "CoreLocation", "CoreLocationTesting", "LocationCore", "LocationEngine", "LocationPolicy",
            "LocationService", "LocationSources", "LocationPlaces",
        ]),
        .testTarget(name: "locationctlTests", dependencies: ["LocationGeodesy", "LocationProtocol", 
            "locationctl", "locationd", "corelocation-example", "CoreLocation", "LocationCore", "LocationEngine",
            "LocationPolicy", "LocationService", "LocationSources", "LocationPersistence", "LocationDaemonClient",
            "LocationPlaces",
        ]),
    ],
    swiftLanguageModes: [.v6]
)

// Every module a file uses must be imported by that file, and so declared above (SE-0444): the
// compiler, not luck in build order, keeps the dependency graph true. `scripts/check-imports.py`
// checks the declarations against the imports.
for target in package.targets where target.name != "CLinuxEpoll" {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
