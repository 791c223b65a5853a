import CoreLocation
import CoreLocationTesting
import Foundation
import LocationCore
import LocationEngine
import LocationPolicy
import LocationProtocol
import LocationSources
import Testing

/// The standard location service: defaults, start/stop, distance filter, a cached first fix,
/// `requestLocation()`, transient errors, automatic pausing, approximate locations.
@Suite struct CLLocationManagerUpdatesTests {
    /// A world whose app is already authorized (While Using, precise).
    private func authorizedWorld(_ spec: String, speed: Double = 1) throws -> LocationTestHarness {
        let world = try LocationTestHarness(source: spec, speed: speed)
        try world.setAuthorization(.authorizedWhenInUse)
        return world
    }

    @Test func defaultsAreApples() throws {
        let world = try authorizedWorld("fixed:52.52,13.405")
        world.run {
            let manager = CLLocationManager()
            #expect(manager.desiredAccuracy == kCLLocationAccuracyBest)
            #expect(manager.distanceFilter == kCLDistanceFilterNone)
            #expect(manager.activityType == .other)
            #expect(manager.pausesLocationUpdatesAutomatically)
            #expect(!manager.allowsBackgroundLocationUpdates)
            #expect(!manager.showsBackgroundLocationIndicator)
            #expect(manager.location == nil, "nil until a location is retrieved")
        }
    }

    @Test func updatesArriveOnTheCreatingThreadInOrderAndSimulated() throws {
        let world = try authorizedWorld("sim:city-drive")
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.startUpdatingLocation()
            world.advance(by: 120)
            #expect(delegate.locations.count >= 100)
            #expect(delegate.events.allSatisfy { if case .locations(let n) = $0 { n >= 1 } else { true } })
            #expect(zip(delegate.locations, delegate.locations.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
            #expect(delegate.threads == [ObjectIdentifier(Thread.current)])
            #expect(delegate.locations.allSatisfy { $0.sourceInformation?.isSimulatedBySoftware == true })
            #expect(manager.location?.timestamp == delegate.locations.last?.timestamp)
        }
    }

    @Test func distanceFilterLimitsEvents() throws {
        let world = try authorizedWorld("sim:freeway-drive")
        world.run {
            let all = RecordingDelegate(), filtered = RecordingDelegate()
            let a = CLLocationManager(), b = CLLocationManager()
            a.delegate = all
            b.delegate = filtered
            b.distanceFilter = 500
            a.startUpdatingLocation()
            b.startUpdatingLocation()
            world.advance(by: 300)
            #expect(all.locations.count >= 290)
            let gaps = zip(filtered.locations, filtered.locations.dropFirst()).map { $1.distance(from: $0) }
            #expect(!gaps.isEmpty)
            #expect(gaps.allSatisfy { $0 >= 500 })
            #expect(filtered.locations.count < all.locations.count / 10)
        }
    }

    @Test func repeatedStartGivesNoNewEventsButStopThenStartDoes() throws {
        let world = try authorizedWorld("fixed:52.52,13.405")
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.distanceFilter = 1_000
            manager.startUpdatingLocation()
            world.advance(by: 5)
            #expect(delegate.locations.count == 1)
            manager.startUpdatingLocation()
            world.advance(by: 5)
            #expect(delegate.locations.count == 1)
            manager.stopUpdatingLocation()
            world.advance(by: 5)
            manager.startUpdatingLocation()
            world.advance(by: 5)
            #expect(delegate.locations.count == 2, "a new initial event after stop → start")
        }
    }

    @Test func aNewManagerMayGetACachedLocationFirst() throws {
        let world = try authorizedWorld("sim:walk")
        try world.run {
            let first = CLLocationManager()
            first.startUpdatingLocation()
            world.advance(by: 20)
            first.stopUpdatingLocation()
            world.advance(by: 120)

            let delegate = RecordingDelegate()
            let second = CLLocationManager()
            second.delegate = delegate
            second.startUpdatingLocation()
            world.settle()
            let cached = try #require(delegate.locations.first)
            #expect(world.loop.now.timeIntervalSince(cached.timestamp) >= 120, "apps must check the timestamp")
            world.advance(by: 2)
            #expect(delegate.locations.count >= 2)
            #expect(delegate.locations.dropFirst().allSatisfy { $0.timestamp > cached.timestamp })
        }
    }

    @Test func requestLocationDeliversExactlyOneLocation() throws {
        let world = try authorizedWorld("sim:walk")
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestLocation()
            world.advance(by: 60)
            #expect(delegate.locations.count == 1)
            #expect(delegate.failures.isEmpty)
            #expect(world.engine.status.activeSource == nil, "services stop after the one fix")
        }
    }

    @Test func stopUpdatingLocationCancelsAPendingRequest() throws {
        let world = LocationTestHarness(sources: [NeverFixSource()])
        try world.setAuthorization(.authorizedWhenInUse)
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestLocation()
            world.advance(by: 1)
            manager.stopUpdatingLocation()
            world.advance(by: 30)
            #expect(delegate.failures.isEmpty && delegate.locations.isEmpty)
            #expect(world.engine.status.subscriberCount == 0)
        }
    }

    @Test func requestLocationFailsWithLocationUnknownWhenNoFixComes() throws {
        let world = LocationTestHarness(sources: [NeverFixSource()])
        try world.setAuthorization(.authorizedWhenInUse)
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestLocation()
            world.advance(by: 30)
            #expect(delegate.failures == [.locationUnknown])
            #expect(delegate.locations.isEmpty)
        }
    }

    @Test func startUpdatingCancelsAPendingRequestAndRequestWhileRunningDoesNothing() throws {
        let world = LocationTestHarness(sources: [NeverFixSource()])
        try world.setAuthorization(.authorizedWhenInUse)
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestLocation()
            manager.startUpdatingLocation()
            manager.requestLocation()
            world.advance(by: 30)
            // Only the standard service's transient error: the request was cancelled, not timed out.
            #expect(delegate.failures == [.locationUnknown])
            manager.stopUpdatingLocation()
        }
    }

    @Test func locationUnknownIsTransient() throws {
        let world = LocationTestHarness(sources: [TunnelSource()])
        try world.setAuthorization(.authorizedWhenInUse)
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.startUpdatingLocation()
            world.advance(by: 40)
            #expect(delegate.failures == [.locationUnknown])
            let failure = delegate.events.firstIndex(of: .failure(.locationUnknown))!
            #expect(delegate.events[failure...].contains { if case .locations = $0 { true } else { false } },
                    "updates resume on their own after the outage")
        }
    }

    @Test func pausesWhenStillAndResumesWhenTheAppRestarts() throws {
        let world = try authorizedWorld("fixed:52.52,13.405")
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.startUpdatingLocation()
            world.advance(by: 4 * 60)
            #expect(delegate.count(.paused) == 0)
            world.advance(by: 2 * 60)
            #expect(delegate.count(.paused) == 1)
            #expect(world.engine.status.activeSource == nil, "the receiver is powered down while paused")
            let before = delegate.locations.count
            world.advance(by: 60)
            #expect(delegate.locations.count == before)

            manager.startUpdatingLocation()
            world.advance(by: 3)
            #expect(delegate.count(.resumed) == 1)
            #expect(delegate.locations.count > before)
        }
    }

    @Test func noPauseWhenDisabled() throws {
        let world = try authorizedWorld("fixed:52.52,13.405")
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.pausesLocationUpdatesAutomatically = false
            manager.startUpdatingLocation()
            world.advance(by: 20 * 60, step: 10)
            #expect(delegate.count(.paused) == 0)
        }
    }

    @Test func reducedAccuracyNeverRevealsThePrecisePosition() throws {
        let world = try LocationTestHarness(source: "sim:city-drive", answer: .allowWhileUsing(precise: false))
        try world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.requestWhenInUseAuthorization()
            manager.startUpdatingLocation()
            world.advance(by: 3600, step: 5)
            #expect(manager.accuracyAuthorization == .reducedAccuracy)
            #expect(!delegate.locations.isEmpty)
            #expect(delegate.locations.count <= 5, "at most a few updates per hour")
            for location in delegate.locations {
                #expect(location.horizontalAccuracy >= 1_000)
                #expect(location.speed < 0 && location.course < 0 && location.verticalAccuracy <= 0)
            }
            let raw = try #require(world.engine.status.lastFix)
            let shown = try #require(delegate.locations.last)
            #expect(shown.coordinate.latitude != raw.latitude || shown.coordinate.longitude != raw.longitude)
        }
    }

    @Test func askingForReducedAccuracyGivesApproximateLocationsEvenWithFullAccuracy() throws {
        #expect(kCLLocationAccuracyReduced == ApproximateLocation.requestedAccuracy)
        let world = try authorizedWorld("sim:city-drive")
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.desiredAccuracy = kCLLocationAccuracyReduced
            manager.startUpdatingLocation()
            world.advance(by: 600, step: 5)
            #expect(manager.accuracyAuthorization == .fullAccuracy)
            #expect(!delegate.locations.isEmpty)
            #expect(delegate.locations.allSatisfy { $0.horizontalAccuracy >= 1_000 })
        }
    }

    @Test func changingTheDistanceFilterWhileRunningTakesEffect() throws {
        let world = try authorizedWorld("sim:freeway-drive")
        world.run {
            let delegate = RecordingDelegate()
            let manager = CLLocationManager()
            manager.delegate = delegate
            manager.startUpdatingLocation()
            world.advance(by: 30)
            let early = delegate.locations.count
            manager.distanceFilter = 2_000
            world.advance(by: 120)
            #expect(delegate.locations.count - early <= 3)
        }
    }
}

/// A receiver that never gets a fix.
final class NeverFixSource: LocationSource, @unchecked Sendable {
    let descriptor = SourceDescriptor(name: "never", kind: .simulation, typicalAccuracy: 5, powerCost: 0)
    private var work: ScheduledWork?

    func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        work = loop.schedule(after: 0.5) { emit(.noFix(reason: "no satellites")) }
    }

    func stop() { work?.cancel() }
}

/// A receiver with a fix, then 15 s in a tunnel, then a fix again, once per second.
final class TunnelSource: LocationSource, @unchecked Sendable {
    let descriptor = SourceDescriptor(name: "tunnel", kind: .simulation, typicalAccuracy: 5, powerCost: 0)
    private var work: ScheduledWork?
    private var tick = 0

    func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        step(loop, emit)
    }

    private func step(_ loop: any EngineLoop, _ emit: @escaping @Sendable (SourceEvent) -> Void) {
        work = loop.schedule(after: 1) { [self] in
            tick += 1
            if (10..<25).contains(tick) {
                emit(.noFix(reason: "tunnel"))
            } else {
                emit(.fix(Fix(latitude: 48.0, longitude: 11.0 + Double(tick) * 0.0002, horizontalAccuracy: 5,
                              speed: 14.9, speedAccuracy: 1, course: 90, courseAccuracy: 5, timestamp: loop.now)))
            }
            step(loop, emit)
        }
    }

    func stop() { work?.cancel() }
}
