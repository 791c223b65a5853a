import CoreLocation
import CoreLocationTesting
import Foundation
import LocationAccess
import LocationApproximation
import LocationEngine
import LocationPlaces
import LocationPolicy
import LocationProtocol
import LocationSources
import Testing
import TestSupport

/// Reduced accuracy's rate limit belongs to the app, not to a stream: however an app asks — new
/// managers, restarted updates, `requestLocation()`, a relaunch — it learns at most four
/// positions an hour.
@Suite struct ApproximateRateLimitTests {
    static func position(_ location: CLLocation) -> String { "\(location.coordinate.latitude),\(location.coordinate.longitude)" }

    /// The device's layout: regions of the places database under a fixed seed.
    static func placeRegions() throws -> any ApproximateRegions {
        PlaceApproximateRegions(database: try PlacesDatabase.shared.get(), seed: try #require(ApproximateRegionsSeed(bytes: Array(1...32))))
    }

    @Test func anAppThatAsksEveryWayPossibleLearnsAtMostFourPositionsInAnHourOfDriving() throws {
        let regions = try Self.placeRegions()
        let world = LocationTestHarness(
            sources: [try SourceSpec("sim:freeway-drive").makeSource(speed: nil)], answer: .allowWhileUsing(precise: false),
            approximateRegions: regions)
        world.run {
            let delegate = RecordingDelegate()
            var managers: [CLLocationManager] = []
            func manager() -> CLLocationManager {
                let manager = CLLocationManager()
                manager.delegate = delegate
                managers.append(manager)
                return manager
            }
            let first = manager()
            first.requestWhenInUseAuthorization()
            first.startUpdatingLocation()
            var regionsDriven = Set<UInt64>()
            for minute in 0..<60 {
                world.advance(by: 60, step: 5)
                if let raw = world.engine.status.lastFix {
                    regionsDriven.insert(regions.region(latitude: raw.latitude, longitude: raw.longitude).id)
                }
                switch minute % 3 {
                case 0:
                    first.stopUpdatingLocation()
                    first.startUpdatingLocation()
                case 1:
                    manager().requestLocation()
                default:
                    manager().startUpdatingLocation()
                }
            }
            #expect(first.accuracyAuthorization == .reducedAccuracy)
            #expect(regionsDriven.count > 8, "the drive crosses many regions")
            let positions = Set(delegate.locations.map(Self.position))
            #expect(!positions.isEmpty && positions.count <= 4, "\(positions)")
            // Every manager that asked was answered, with what the app already knew.
            #expect(delegate.locations.count > 20)
            for manager in managers { manager.stopUpdatingLocation() }
        }
    }

    @Test func aRelaunchOrARestartedServiceIsNoWayToAFresherPosition() throws {
        let storage = MemoryApproximateStorage()
        func launch() throws -> LocationTestHarness {
            try LocationTestHarness(
                sources: [SourceSpec("sim:freeway-drive").makeSource(speed: nil)], answer: .allowWhileUsing(precise: false),
                approximateStorage: storage)
        }
        var learned = Set<String>()
        // Ten launches, two simulated minutes each: the car moves on between them, the app's
        // history does not start over.
        for _ in 0..<10 {
            let world = try launch()
            world.run {
                let delegate = RecordingDelegate()
                let manager = CLLocationManager()
                manager.delegate = delegate
                manager.requestWhenInUseAuthorization()
                manager.requestLocation()
                world.advance(by: 120, step: 5)
                learned.formUnion(delegate.locations.map(Self.position))
                #expect(delegate.locations.count == 1)
            }
        }
        #expect(learned.count == 1, "\(learned)")
    }

    @Test func twoProcessesOfTheAppEachWithItsOwnServiceShareOneLimit() throws {
        // Without locationd each process runs the service itself; their histories meet in the store.
        let storage = MemoryApproximateStorage()
        let regions = try Self.placeRegions()
        // Two different drives at once (the device is one, but the processes see different sources
        // here, so that without the shared limit they would learn different positions).
        let worlds = try ["sim:freeway-drive", "sim:city-drive"].map { spec in
            LocationTestHarness(
                sources: [try SourceSpec(spec).makeSource(speed: nil)], answer: .allowWhileUsing(precise: false),
                approximateRegions: regions, approximateStorage: storage)
        }
        let delegates = worlds.map { world in
            world.run { () -> (RecordingDelegate, CLLocationManager) in
                let delegate = RecordingDelegate()
                let manager = CLLocationManager()
                manager.delegate = delegate
                manager.pausesLocationUpdatesAutomatically = false
                manager.requestWhenInUseAuthorization()
                manager.startUpdatingLocation()
                return (delegate, manager)
            }
        }
        for _ in 0..<60 {
            for world in worlds { world.advance(by: 60, step: 5) }
        }
        let positions = Set(delegates.flatMap { $0.0.locations.map(Self.position) })
        #expect(delegates.allSatisfy { !$0.0.locations.isEmpty })
        #expect(positions.count <= 4, "\(positions)")
        for (_, manager) in delegates { manager.stopUpdatingLocation() }
    }

    @Test func averagingAThousandFixesOfAStillUserComesNoCloserThanOne() throws {
        let truth = (latitude: 48.137_1, longitude: 11.575_4)
        let world = LocationTestHarness(
            sources: [StraightDriveSource(start: truth, azimuth: 0, speed: 0, noise: 5)], answer: .allowWhileUsing(precise: false))
        try world.run {
            let delegate = RecordingDelegate()
            var managers: [CLLocationManager] = []
            let asking = CLLocationManager()
            asking.requestWhenInUseAuthorization()
            world.settle()
            for _ in 0..<1000 {
                let manager = CLLocationManager()
                manager.delegate = delegate
                managers.append(manager)
                manager.requestLocation()
                world.advance(by: 1, step: 1)
            }
            #expect(delegate.locations.count == 1000)
            let one = try #require(delegate.locations.first)
            let mean = CLLocation(
                latitude: delegate.locations.map(\.coordinate.latitude).reduce(0, +) / 1000,
                longitude: delegate.locations.map(\.coordinate.longitude).reduce(0, +) / 1000)
            let truthLocation = CLLocation(latitude: truth.latitude, longitude: truth.longitude)
            #expect(mean.distance(from: truthLocation) >= one.distance(from: truthLocation) - 0.001)
            #expect(one.distance(from: truthLocation) > 100, "the reported point is not the truth")
            #expect(one.distance(from: truthLocation) <= one.horizontalAccuracy)
        }
    }
}
