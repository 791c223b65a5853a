import CoreLocation
import CoreLocationTesting
import Foundation
import LocationAccess
import LocationCore
import LocationEngine
import LocationProtocol
import LocationGeodesy
import LocationSources
import TestSupport
import Testing

/// Region monitoring on `CLLocationManager`, in the in-process service on virtual time.
@Suite struct CLLocationManagerRegionTests {
    static let centre = CLLocationCoordinate2D(latitude: 52.52, longitude: 13.405)

    /// A device that starts `lead` metres west of the centre and drives east through it.
    static func drive(lead: Double = 500, speed: Double = 10, accuracy: Double = 5, noise: Double = 0, seed: UInt64 = 1)
        -> StraightDriveSource
    {
        let start = Geodesic.wgs84.direct(latitude: centre.latitude, longitude: centre.longitude, azimuth: 270, distance: lead)
        return StraightDriveSource(start: (start.latitude, start.longitude), azimuth: 90, speed: speed, accuracy: accuracy,
                                   noise: noise, seed: seed)
    }

    static func world(
        _ source: any LocationSource, status: CLAuthorizationStatus = .authorizedWhenInUse,
        accuracy: CLAccuracyAuthorization = .fullAccuracy, storage: MemoryFenceStorage = MemoryFenceStorage(),
        limits: FenceLimits = FenceLimits()
    ) throws -> LocationTestHarness {
        let world = LocationTestHarness(sources: [source], fenceStorage: storage, fenceLimits: limits)
        try world.setAuthorization(status, accuracy: accuracy)
        return world
    }

    @Test func drivingThroughACircleGivesOneEntryAndOneExitNearTheTrueCrossings() throws {
        let source = Self.drive()
        let world = try Self.world(source)
        try world.run {
            let recorder = RegionRecorder(clock: { world.loop.now })
            let manager = CLLocationManager()
            manager.delegate = recorder
            manager.startMonitoring(for: CLCircularRegion(center: Self.centre, radius: 100, identifier: "block"))
            world.advance(by: 120)
            #expect(recorder.crossings == [.entered("block"), .exited("block")])
            #expect(recorder.count(.started("block")) == 1)
            #expect(recorder.events.filter { if case .determined = $0 { true } else { false } } == [
                .determined("block", .outside), .determined("block", .inside), .determined("block", .outside),
            ])
            // The true crossings are 400 m and 600 m along the drive.
            let origin = try #require(source.origin)
            let entered = try #require(recorder.time(of: .entered("block"))).timeIntervalSince(origin) * 10
            let exited = try #require(recorder.time(of: .exited("block"))).timeIntervalSince(origin) * 10
            #expect(abs(entered - 400) <= 60, "entry reported \(entered - 400) m after the crossing")
            #expect(abs(exited - 600) <= 60, "exit reported \(exited - 600) m after the crossing")
        }
    }

    @Test func aStationaryNoisyReceiverOnTheBoundaryNeverFlaps() throws {
        // On the boundary: 100 m east of the centre of a 100 m circle, σ = 15 m per axis, for an hour.
        for seed: UInt64 in 1...3 {
            let point = Geodesic.wgs84.direct(latitude: Self.centre.latitude, longitude: Self.centre.longitude, azimuth: 90, distance: 100)
            let source = StraightDriveSource(start: (point.latitude, point.longitude), speed: 0, accuracy: 15, noise: 15, seed: seed)
            let world = try Self.world(source)
            world.run {
                let recorder = RegionRecorder()
                let manager = CLLocationManager()
                manager.delegate = recorder
                manager.startMonitoring(for: CLCircularRegion(center: Self.centre, radius: 100, identifier: "edge"))
                world.advance(by: 3600, step: 60)
                let crossings = recorder.crossings
                #expect(!(crossings.contains(.entered("edge")) && crossings.contains(.exited("edge"))),
                        "seed \(seed): \(crossings)")
            }
        }
    }

    @Test func monitoredRegionsAreSharedReplacedByIdentifierAndStopped() throws {
        let world = try Self.world(Self.drive())
        world.run {
            let a = CLLocationManager(), b = CLLocationManager()
            a.startMonitoring(for: CLCircularRegion(center: Self.centre, radius: 100, identifier: "x"))
            #expect(b.monitoredRegions.map(\.identifier) == ["x"])
            a.startMonitoring(for: CLCircularRegion(center: Self.centre, radius: 250, identifier: "x"))
            world.settle()
            let region = try? #require(b.monitoredRegions.first as? CLCircularRegion)
            #expect(b.monitoredRegions.count == 1)
            #expect(region?.radius == 250)
            b.stopMonitoring(for: CLCircularRegion(center: Self.centre, radius: 1, identifier: "x"))
            world.settle()
            #expect(a.monitoredRegions.isEmpty)
            #expect(CLLocationManager().monitoredRegions.isEmpty)
        }
    }

    @Test func theTwentyFirstRegionFailsAndATooLargeOneToo() throws {
        let world = try Self.world(Self.drive())
        world.run {
            let recorder = RegionRecorder()
            let manager = CLLocationManager()
            manager.delegate = recorder
            for index in 0..<21 {
                manager.startMonitoring(for: CLCircularRegion(center: Self.centre, radius: 100, identifier: "r\(index)"))
            }
            manager.startMonitoring(for: CLCircularRegion(
                center: Self.centre, radius: manager.maximumRegionMonitoringDistance + 1, identifier: "huge"))
            world.settle()
            #expect(recorder.events.contains(.failed("r20", .regionMonitoringFailure)))
            #expect(recorder.events.contains(.failed("huge", .regionMonitoringFailure)))
            #expect(manager.monitoredRegions.count == 20)
            #expect(recorder.events.filter { if case .started = $0 { true } else { false } }.count == 20)
        }
    }

    /// Without a beacon source, as on a device without Bluetooth LE.
    @Test func beaconRegionsAreUnavailableAndFailVisibly() throws {
        let world = try Self.world(Self.drive())
        world.run {
            #expect(CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self))
            #expect(!CLLocationManager.isMonitoringAvailable(for: CLBeaconRegion.self))
            let recorder = RegionRecorder()
            let manager = CLLocationManager()
            manager.delegate = recorder
            manager.startMonitoring(for: CLBeaconRegion(uuid: UUID(), identifier: "beacon"))
            world.settle()
            #expect(recorder.events == [.failed("beacon", .regionMonitoringFailure)])
            #expect(manager.monitoredRegions.isEmpty)
        }
    }

    @Test func deniedAndReducedAccuracyAppsGetRegionMonitoringDenied() throws {
        for (status, accuracy) in [(CLAuthorizationStatus.denied, CLAccuracyAuthorization.fullAccuracy),
                                   (.authorizedWhenInUse, .reducedAccuracy)] {
            let world = try Self.world(Self.drive(), status: status, accuracy: accuracy)
            world.run {
                let recorder = RegionRecorder()
                let manager = CLLocationManager()
                manager.delegate = recorder
                manager.startMonitoring(for: CLCircularRegion(center: Self.centre, radius: 100, identifier: "block"))
                world.advance(by: 120)
                #expect(recorder.events.contains(.failed("block", .regionMonitoringDenied)), "\(status) \(accuracy)")
                #expect(recorder.crossings.isEmpty)
                // Kept: it works once the app may use it.
                #expect(manager.monitoredRegions.map(\.identifier) == ["block"])
            }
        }
    }

    @Test func notifyFlagsSuppressEntryOrExitButNotTheStates() throws {
        let world = try Self.world(Self.drive())
        world.run {
            let recorder = RegionRecorder()
            let manager = CLLocationManager()
            manager.delegate = recorder
            let region = CLCircularRegion(center: Self.centre, radius: 100, identifier: "quiet")
            region.notifyOnEntry = false
            manager.startMonitoring(for: region)
            world.advance(by: 120)
            #expect(recorder.crossings == [.exited("quiet")])
            #expect(recorder.count(.determined("quiet", .inside)) == 1)
        }
    }

    @Test func requestStateAnswersThroughDidDetermineState() throws {
        let world = try Self.world(Self.drive(lead: 0))
        world.run {
            let recorder = RegionRecorder()
            let manager = CLLocationManager()
            manager.delegate = recorder
            let region = CLCircularRegion(center: Self.centre, radius: 100, identifier: "here")
            manager.startMonitoring(for: region)
            world.advance(by: 3)
            let before = recorder.count(.determined("here", .inside))
            manager.requestState(for: region)
            world.settle()
            #expect(recorder.count(.determined("here", .inside)) == before + 1)
            // Not monitored: no answer.
            manager.requestState(for: CLCircularRegion(center: Self.centre, radius: 100, identifier: "elsewhere"))
            world.settle()
            #expect(!recorder.events.contains { if case .determined("elsewhere", _) = $0 { true } else { false } })
        }
    }

    @Test func crossingsWhileTheAppIsNotRunningReachItsNextLaunchInOrderOnce() throws {
        let storage = MemoryFenceStorage()
        let world = try Self.world(Self.drive(), status: .authorizedAlways, storage: storage)
        world.run {
            var manager: CLLocationManager? = CLLocationManager()
            manager?.startMonitoring(for: CLCircularRegion(center: Self.centre, radius: 100, identifier: "block"))
            world.advance(by: 5)
            manager = nil
            world.settle()
            // Not running: the drive goes on through the circle.
            world.advance(by: 115)
            let recorder = RegionRecorder()
            let relaunched = CLLocationManager()
            relaunched.delegate = recorder
            world.settle()
            #expect(recorder.crossings == [.entered("block"), .exited("block")])
            let second = RegionRecorder()
            let another = CLLocationManager()
            another.delegate = second
            world.settle()
            #expect(second.crossings.isEmpty, "delivered once")
            #expect(relaunched.monitoredRegions.map(\.identifier) == ["block"])
        }
        // A restarted service (locationd restarted, or the next in-process launch) restores them.
        let restarted = try Self.world(Self.drive(), status: .authorizedAlways, storage: storage)
        restarted.run {
            #expect(CLLocationManager().monitoredRegions.map(\.identifier) == ["block"])
        }
    }

    @Test func whenInUseAppsGetNoEventsForTheTimeTheyWereNotRunning() throws {
        let world = try Self.world(Self.drive(), status: .authorizedWhenInUse)
        world.run {
            var manager: CLLocationManager? = CLLocationManager()
            manager?.startMonitoring(for: CLCircularRegion(center: Self.centre, radius: 100, identifier: "block"))
            world.advance(by: 5)
            manager = nil
            world.settle()
            // The whole pass through the circle happens while the app is not running.
            world.advance(by: 115)
            let recorder = RegionRecorder()
            let relaunched = CLLocationManager()
            relaunched.delegate = recorder
            world.advance(by: 5)
            #expect(recorder.crossings.isEmpty, "nothing kept, and outside then as now")
            #expect(relaunched.monitoredRegions.map(\.identifier) == ["block"])
        }
    }

    /// Apps start monitoring their regions at every launch: the same region keeps its state, so
    /// the next crossing is reported as the entry or exit it is, and nothing is re-emitted.
    @Test func startingTheSameRegionAgainKeepsItsState() throws {
        let world = try Self.world(Self.drive())
        world.run {
            let region = CLCircularRegion(center: Self.centre, radius: 100, identifier: "block")
            var manager: CLLocationManager? = CLLocationManager()
            manager?.startMonitoring(for: region)
            world.advance(by: 50)  // inside
            manager = nil
            world.settle()
            let recorder = RegionRecorder()
            let relaunched = CLLocationManager()
            relaunched.delegate = recorder
            relaunched.startMonitoring(for: CLCircularRegion(center: Self.centre, radius: 100, identifier: "block"))
            world.advance(by: 5)
            #expect(!recorder.events.contains { if case .determined = $0 { true } else { false } }, "no state re-emitted")
            world.advance(by: 65)
            #expect(recorder.crossings == [.exited("block")])
        }
    }

    /// A restarted `locationd` hands its engine the last location of its previous run, which may be
    /// older than the fences' states (it saves that location only every few seconds): delivered as
    /// the first fix of the fences' subscription, it must not move them back in time.
    @Test func aStaleRestoredLocationMovesNoFence() throws {
        let storage = MemoryFenceStorage()
        let first = try Self.world(Self.drive(), status: .authorizedAlways, storage: storage)
        first.run {
            let manager = CLLocationManager()
            manager.startMonitoring(for: CLCircularRegion(center: Self.centre, radius: 100, identifier: "block"))
            first.advance(by: 50)  // inside
        }
        let here = (latitude: Self.centre.latitude, longitude: Self.centre.longitude)
        let restarted = LocationTestHarness(sources: [StraightDriveSource(start: here, speed: 0)], fenceStorage: storage)
        let outside = Geodesic.wgs84.direct(latitude: here.latitude, longitude: here.longitude, azimuth: 0, distance: 1_000)
        restarted.engine.restoreLastFix(Fix(latitude: outside.latitude, longitude: outside.longitude, horizontalAccuracy: 5,
                                            timestamp: restarted.loop.now.addingTimeInterval(-3_600)))
        try restarted.setAuthorization(.authorizedAlways)
        restarted.advance(by: 10)
        restarted.run {
            let recorder = RegionRecorder()
            let relaunched = CLLocationManager()
            relaunched.delegate = recorder
            restarted.advance(by: 5)
            #expect(recorder.crossings.isEmpty, "inside before the restart, inside now")
        }
    }

    @Test func revokingStopsEvents() throws {
        let world = try Self.world(Self.drive())
        try world.run {
            let recorder = RegionRecorder()
            let manager = CLLocationManager()
            manager.delegate = recorder
            manager.startMonitoring(for: CLCircularRegion(center: Self.centre, radius: 100, identifier: "block"))
            world.advance(by: 50)
            #expect(recorder.crossings == [.entered("block")])
            try world.setAuthorization(.denied)
            world.advance(by: 70)
            #expect(recorder.crossings == [.entered("block")])
        }
    }

    @Test func theLimitCanBeRaisedForEmbeddedApps() throws {
        let world = try Self.world(Self.drive(), limits: FenceLimits(fencesPerApp: 500))
        world.run {
            let manager = CLLocationManager()
            for index in 0..<500 {
                manager.startMonitoring(for: CLCircularRegion(center: Self.centre, radius: 100, identifier: "r\(index)"))
            }
            world.settle()
            #expect(manager.monitoredRegions.count == 500)
        }
    }
}
