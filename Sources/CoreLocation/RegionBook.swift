import Foundation
import LocationBootstrap
import LocationCore
import LocationProtocol

/// The app's monitored regions as every `CLLocationManager` of the process shares them
/// (`monitoredRegions`): filled by the service's snapshot when the first manager connects, then
/// kept up to date by each start, stop and refusal.
///
/// The service keeps the regions (and persists them across launches); this is the process's copy,
/// so that `monitoredRegions` answers at once. Read from any thread.
final class RegionBook: Sendable {
    private struct State {
        var definitions: [String: FenceDefinition] = [:]
        var loaded = false
    }

    private let state = Locked(State())
    private let loadedSignal = DispatchSemaphore(value: 0)

    /// How long `monitoredRegions` waits for the service's first snapshot (it normally comes within
    /// a round trip of the first manager's creation).
    static let snapshotTimeout: TimeInterval = 2

    /// The book of the app served by `system`'s provider (tests run several worlds in one process).
    static func book(for system: LocationSystem) -> RegionBook {
        let key = BookKey(provider: ObjectIdentifier(system.provider), app: system.app.id)
        return books.withLock { books in
            if let book = books[key] { return book }
            let book = RegionBook()
            // The in-process service knows the regions without a round trip (and a manager that
            // waited for its snapshot on a thread the service's loop needs would wait in vain).
            if let known = system.provider.currentRegions(app: system.app) {
                book.state.withLock { state in
                    state.definitions = Dictionary(known.map { ($0.definition.identifier, $0.definition) }) { _, last in last }
                    state.loaded = true
                }
            }
            books[key] = book
            return book
        }
    }

    private struct BookKey: Hashable {
        var provider: ObjectIdentifier
        var app: String
    }

    private static let books = Locked<[BookKey: RegionBook]>([:])

    /// The regions now, as new objects (Apple: compare them by identifier).
    func regions() -> Set<CLRegion> {
        if !state.withLock({ $0.loaded }) {
            _ = loadedSignal.wait(timeout: .now() + Self.snapshotTimeout)
        }
        return Set(state.withLock { $0.definitions.values.map(CLRegion.make) })
    }

    func definition(_ identifier: String) -> FenceDefinition? {
        state.withLock { $0.definitions[identifier] }
    }

    /// Applies what the service said; called where the event arrives, before it reaches the run loop.
    func apply(_ update: FenceUpdate) {
        let first = state.withLock { state -> Bool in
            switch update {
            case .snapshot(let records):
                state.definitions = Dictionary(records.map { ($0.definition.identifier, $0.definition) }) { _, last in last }
            case .started(let record):
                state.definitions[record.definition.identifier] = record.definition
            case let .failed(identifier, issue):
                if issue.dropsRegion { state.definitions[identifier] = nil }
            case .removed(let identifier):
                state.definitions[identifier] = nil
                return false
            case .changed, .determined:
                return false
            }
            defer { state.loaded = true }
            return !state.loaded
        }
        if first { loadedSignal.signal() }
    }

    /// The app started monitoring a region: it is in `monitoredRegions` at once.
    func started(_ definition: FenceDefinition) {
        state.withLock { $0.definitions[definition.identifier] = definition }
    }

    func stopped(_ identifier: String) {
        state.withLock { _ = $0.definitions.removeValue(forKey: identifier) }
    }
}

extension FenceIssue {
    /// Whether the service refused the region outright (rather than keeping it until the app may
    /// use it).
    var dropsRegion: Bool {
        switch self {
        case .invalidRegion, .limitExceeded, .unsupported: true
        case .denied, .accuracyLimited, .persistenceUnavailable: false
        }
    }
}

extension CLRegion {
    /// The region a fence stands for.
    static func make(_ definition: FenceDefinition) -> CLRegion {
        let region: CLRegion = switch definition.condition {
        case let .circle(latitude, longitude, radius):
            CLCircularRegion(center: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
                             radius: radius, identifier: definition.identifier)
        case let .beacon(uuid, major, minor):
            CLBeaconRegion(beaconIdentityConstraint: CLBeaconIdentityConstraint.make(uuid: uuid, major: major, minor: minor),
                           identifier: definition.identifier)
        }
        region.notifyOnEntry = definition.notifyOnEntry
        region.notifyOnExit = definition.notifyOnExit
        return region
    }

    /// The fence this region asks for; nil for a plain `CLRegion` with no shape.
    var fenceDefinition: FenceDefinition? {
        let condition: FenceCondition
        if let beacon = self as? CLBeaconRegion {
            let constraint = beacon.beaconIdentityConstraint
            condition = .beacon(uuid: constraint.uuid, major: constraint.major, minor: constraint.minor)
        } else if let circle {
            condition = .circle(latitude: circle.center.latitude, longitude: circle.center.longitude, radius: circle.radius)
        } else {
            return nil
        }
        return FenceDefinition(identifier: identifier, condition: condition, notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit)
    }
}

extension CLBeaconIdentityConstraint {
    static func make(uuid: UUID, major: CLBeaconMajorValue?, minor: CLBeaconMinorValue?) -> CLBeaconIdentityConstraint {
        switch (major, minor) {
        case let (major?, minor?): CLBeaconIdentityConstraint(uuid: uuid, major: major, minor: minor)
        case let (major?, nil): CLBeaconIdentityConstraint(uuid: uuid, major: major)
        default: CLBeaconIdentityConstraint(uuid: uuid)
        }
    }
}
