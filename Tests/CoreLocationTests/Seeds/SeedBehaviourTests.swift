import CoreLocation
import CoreLocationTesting
import Foundation
import LocationCore
import LocationGeodesy
import LocationPolicy
import LocationProtocol
import TestSupport
import Testing

/// The app code of `SeedCode.swift` behaves as the articles it comes from describe.
@Suite struct SeedBehaviourTests {
    @Test func dataManagerAsksWhenNotDeterminedAndEnablesFeaturesWhenAllowed() throws {
        let world = try LocationTestHarness(source: "sim:walk", answer: .allowWhileUsing(precise: true))
        world.run {
            let manager = LocationDataManager()
            world.settle()
            // Created → told "not determined" → asked → allowed → told again → features on.
            #expect(world.prompter.requests.count == 1)
            #expect(manager.featuresEnabled == true)
            manager.locationManager.startUpdatingLocation()
            world.advance(by: 5)
            #expect(manager.lastLocation != nil)
        }
    }

    @Test func dataManagerDisablesFeaturesAndStopsWhenDenied() throws {
        let world = try LocationTestHarness(source: "sim:walk", answer: .dontAllow)
        world.run {
            let manager = LocationDataManager()
            world.settle()
            #expect(manager.featuresEnabled == false)
            manager.locationManager.startUpdatingLocation()
            world.advance(by: 5)
            #expect(manager.deniedErrors == 1, "error as? CLError, error.code == .denied")
            #expect(manager.otherErrors == 0)
            #expect(manager.lastLocation == nil)
        }
    }

    @Test func viewControllerFollowsThePreAndPostiOS14Check() throws {
        let world = try LocationTestHarness(source: "sim:walk", answer: .allowWhileUsing(precise: true))
        world.run {
            let controller = LocationViewController()
            controller.locationManager.delegate = controller
            world.advance(by: 5)
            // Not determined → request → authorized → startUpdatingLocation → one location → stop.
            #expect(controller.log.contains("location 1"))
            #expect(controller.log.contains("legacy 4"), "the deprecated callback still arrives")
            #expect(controller.locationManager.desiredAccuracy == kCLLocationAccuracyBest)
        }
    }

    @Test func viewControllerReportsServicesOff() throws {
        let world = try LocationTestHarness(source: "sim:walk")
        try world.updateStore { $0.servicesEnabled = false }
        world.run {
            let controller = LocationViewController()
            controller.locationManager.delegate = controller
            world.settle()
            #expect(controller.log.contains("위치 서비스가 꺼져 있어서, 위치 권한 요청을 할 수 없어요!"))
            #expect(world.prompter.requests.isEmpty)
        }
    }

    @Test func liveUpdatesLoopProcessesLocations() async throws {
        let world = try LocationTestHarness(source: "sim:walk", answer: .allowWhileUsing(precise: true))
        let seed = await world.run {
            let task = Task {
                var seed = LiveUpdatesSeed()
                try await seed.run(limit: 5)
                return seed
            }
            return await drive(world, until: task)
        }
        #expect(seed?.processed.count == 5)
        #expect(world.prompter.requests.count == 1, "iterating asks for authorization")
    }

    @Test func liveUpdatesLoopSeesDenial() async throws {
        let world = try LocationTestHarness(source: "sim:walk", answer: .dontAllow)
        let seed = await world.run {
            let task = Task {
                var seed = LiveUpdatesSeed()
                try await seed.run(limit: 5)
                return seed
            }
            return await drive(world, until: task)
        }
        #expect(seed?.deniedSeen == true)
        #expect(seed?.processed.isEmpty == true)
    }
}

/// Advances virtual time until `task` finishes (at most ten simulated minutes).
func drive<T: Sendable>(_ world: LocationTestHarness, until task: Task<T, any Error>) async -> T? {
    let done = Flag()
    let watcher = Task { _ = try? await task.value; done.set() }
    var seconds = 0
    // Generous on the wall clock: in a full parallel run other tests may hold the cooperative
    // threads for tens of seconds; virtual time is what the tests measure.
    _ = await eventually(timeout: .seconds(180)) {
        guard !done.isSet, seconds < 600 else { return true }
        world.loop.advance(by: 1)
        seconds += 1
        return done.isSet
    }
    watcher.cancel()
    task.cancel()
    return try? await task.value
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// The region monitoring samples of "Monitoring the user's proximity to geographic regions".
@Suite struct RegionSeedBehaviourTests {
    @Test func theManagerSampleTriggersItsTaskOnEntryOnly() throws {
        // 110 km west of the centre at 100 m/s: the 100 km region is entered after about 100 s.
        let centre = CLLocationCoordinate2D(latitude: 37.3346, longitude: -122.0090)
        let start = Geodesic.wgs84.direct(latitude: centre.latitude, longitude: centre.longitude, azimuth: 270, distance: 110_000)
        let source = StraightDriveSource(start: (start.latitude, start.longitude), azimuth: 90, speed: 100)
        let world = LocationTestHarness(sources: [source])
        try world.setAuthorization(.authorizedAlways)
        world.run {
            let seed = RegionMonitoringSeed()
            seed.monitorRegionAtLocation(center: centre, identifier: "ApplePark")
            world.advance(by: 60)
            #expect(seed.triggered.isEmpty, "still 50 km outside")
            world.advance(by: 60)
            #expect(seed.triggered == ["ApplePark"])
            world.advance(by: 2_000)
            #expect(seed.triggered == ["ApplePark"], "notifyOnExit is false: leaving triggers nothing")
        }
    }

    @Test func theMonitorSampleReportsEnteringAndLeaving() async throws {
        let world = try MonitorWorld(at: MonitorPlace.outside)
        let reports = Locked<[String]>([])
        let task = world.harness.run {
            Task { try await monitorApplePark(center: MonitorPlace.center) { line in reports.withLock { $0.append(line) } } }
        }
        defer { task.cancel() }
        /// Runs the world until `count` reports came (generous: other tests may hold the threads).
        func reported(_ count: Int) async -> [String] {
            _ = await eventually(timeout: .seconds(60)) {
                world.advance(by: 1)
                return reports.withLock { $0.count } >= count
            }
            return reports.withLock { $0 }
        }
        #expect(await reported(1) == ["left ApplePark"], "the first state: outside")
        world.move(to: MonitorPlace.inside)
        #expect(await reported(2) == ["left ApplePark", "entered ApplePark"])
        world.move(to: MonitorPlace.outside)
        #expect(await reported(3) == ["left ApplePark", "entered ApplePark", "left ApplePark"])
    }
}
