import CoreLocation
import CoreLocationTesting
import Foundation
import LocationCore
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
    _ = await eventually(timeout: .seconds(60)) {
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
