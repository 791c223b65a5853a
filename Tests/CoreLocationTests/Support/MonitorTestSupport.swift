import CoreLocation
import CoreLocationTesting
import Foundation
import LocationAccess
import LocationCore
import LocationProtocol
import TestSupport
import Testing

/// Places around a 200 m circle in Berlin for the monitor tests.
enum MonitorPlace {
    static let center = CLLocationCoordinate2D(latitude: 52.52, longitude: 13.405)
    static let circle = CLMonitor.CircularGeographicCondition(center: center, radius: 200)
    static let inside = (latitude: 52.52, longitude: 13.405)
    /// About 300 m north of the centre: near enough that the service keeps asking for precise
    /// fixes (far from every boundary it asks for coarse ones, which a device standing still
    /// does not produce again).
    static let outside = (latitude: 52.5227, longitude: 13.405)
}

/// A virtual world whose receiver the test carries in and out of circles.
struct MonitorWorld {
    let harness: LocationTestHarness
    let source: MovableSource

    /// - Parameters:
    ///   - authorization: stored before anything connects; nil leaves it not determined.
    init(
        at place: (latitude: Double, longitude: Double) = MonitorPlace.outside,
        authorization: CLAuthorizationStatus? = .authorizedWhenInUse, info: AppInfo = LocationTestHarness.defaultInfo,
        answer: LocationTestHarness.Answer? = .allowWhileUsing(precise: true),
        fenceStorage: any FenceStorage = MemoryFenceStorage()
    ) throws {
        source = MovableSource(latitude: place.latitude, longitude: place.longitude)
        harness = LocationTestHarness(sources: [source], info: info, answer: answer, fenceStorage: fenceStorage)
        if let authorization { try harness.setAuthorization(authorization) }
    }

    func move(to place: (latitude: Double, longitude: Double)) {
        source.move(latitude: place.latitude, longitude: place.longitude)
    }

    /// Opens a monitor in this world, running the service until it has answered.
    func open(_ name: String) async throws -> CLMonitor {
        let harness = harness
        let monitor = await harness.run {
            let task = Task { () async throws -> CLMonitor in await CLMonitor(name) }
            return await drive(harness, until: task)
        }
        return try #require(monitor)
    }

    func advance(by seconds: TimeInterval) { harness.advance(by: seconds) }
}

/// Iterates a monitor's events in a task of its own and keeps them.
final class MonitorEventRecorder: Sendable {
    private let seen: Locked<[CLMonitor.Event]>
    private let task: Task<Void, Never>

    init(_ events: CLMonitor.Events) {
        let seen = Locked<[CLMonitor.Event]>([])
        self.seen = seen
        task = Task {
            do {
                for try await event in events { seen.withLock { $0.append(event) } }
            } catch {
                Issue.record("iterating the events threw \(error)")
            }
        }
    }

    var events: [CLMonitor.Event] { seen.withLock { $0 } }

    func events(for identifier: String) -> [CLMonitor.Event] { events.filter { $0.identifier == identifier } }

    /// Whether `condition` holds for the events seen within a few seconds.
    func wait(_ condition: ([CLMonitor.Event]) -> Bool) async -> Bool {
        await eventually { condition(events) }
    }

    /// Ends the iteration and waits until it has.
    func stop() async {
        task.cancel()
        await task.value
    }
}

/// A custom condition type, which the framework cannot watch.
struct WiFiNetworkCondition: CLCondition, Equatable {
    var ssid: String
}
