import CoreLocation
import Dispatch
import Foundation
import LocationCore
import LocationPlaces
import TestSupport

/// A places database stand-in that answers with fixed places, records every query and the thread
/// it ran on, and (when `blocking`) holds every lookup until the test calls `release()`.
final class ScriptedGeocodingBackend: GeocodingBackend, @unchecked Sendable {
    enum Query: Equatable {
        case reverse(latitude: Double, longitude: Double)
        case search(text: String, region: SearchRegion?, limit: Int)
    }

    private let places: [PlaceDescription]
    private let gate = DispatchGroup()
    private let recorded = Locked<(queries: [Query], threads: [pthread_t], returned: Int)>(([], [], 0))

    init(places: [PlaceDescription], blocking: Bool = false) {
        self.places = places
        if blocking { gate.enter() }
    }

    var queries: [Query] { recorded.withLock { $0.queries } }
    var threads: [pthread_t] { recorded.withLock { $0.threads } }

    /// Lets every held lookup (and every later one) finish. Call once, and only when `blocking`.
    func release() { gate.leave() }

    /// How long a wait below allows. The lookups run on the geocoder's dispatch queue, whose threads the
    /// whole test run shares with every suite's work: on two cores, at the run's start, a lookup has been seen
    /// to wait over ten seconds for a thread. The waits return as soon as the lookups get there.
    static let patience = Duration.seconds(60)

    /// Waits until `count` lookups have started (so they are in progress, not just queued).
    func waitUntilStarted(_ count: Int = 1, timeout: Duration = patience) async -> Bool {
        await eventually(timeout: timeout) { recorded.withLock { $0.queries.count } >= count }
    }

    /// Waits until `count` lookups have returned their answer to the geocoder.
    func waitUntilReturned(_ count: Int = 1, timeout: Duration = patience) async -> Bool {
        await eventually(timeout: timeout) { recorded.withLock { $0.returned } >= count }
    }

    func reverseGeocode(latitude: Double, longitude: Double) -> PlaceDescription? {
        record(.reverse(latitude: latitude, longitude: longitude))
        return places.first
    }

    func search(_ text: String, preferring region: SearchRegion?, limit: Int) -> [PlaceDescription] {
        record(.search(text: text, region: region, limit: limit))
        return Array(places.prefix(limit))
    }

    private func record(_ query: Query) {
        recorded.withLock {
            $0.queries.append(query)
            $0.threads.append(pthread_self())
        }
        gate.wait()
        recorded.withLock { $0.returned += 1 }
    }

    /// A provider for `CLGeocoder(backend:)`.
    var provider: GeocodingBackendProvider { { .success(self) } }
}

/// The outcome of one completion-handler call, with where it ran.
struct GeocodeOutcome: @unchecked Sendable {
    var placemarks: [CLPlacemark]?
    var error: (any Error)?
    /// Whether the handler ran on the main queue (Apple's "main thread"; under `swift test` the main
    /// queue is drained by a thread that is not the process's first, see `MainQueue`).
    var onMainQueue: Bool
    var isGeocodingInHandler: Bool

    var code: CLError.Code? { (error as? CLError)?.code }
}

/// Collects completion-handler calls across threads.
final class GeocodeOutcomes: @unchecked Sendable {
    private let outcomes = Locked<[(tag: String, outcome: GeocodeOutcome)]>([])

    var all: [(tag: String, outcome: GeocodeOutcome)] { outcomes.withLock { $0 } }

    /// A completion handler that records its call under `tag`.
    func handler(_ tag: String, _ geocoder: CLGeocoder) -> CLGeocodeCompletionHandler {
        { [outcomes] placemarks, error in
            let outcome = GeocodeOutcome(
                placemarks: placemarks, error: error, onMainQueue: MainQueue.isCurrent,
                isGeocodingInHandler: geocoder.isGeocoding)
            outcomes.withLock { $0.append((tag, outcome)) }
        }
    }

    /// Waits until at least `count` calls arrived (polling; the calls run on the main queue).
    func wait(for count: Int, timeout: Duration = ScriptedGeocodingBackend.patience) async -> Bool {
        await eventually(timeout: timeout) { outcomes.withLock { $0.count } >= count }
    }
}

extension PlaceDescription {
    static let berlin = PlaceDescription(
        name: "Berlin", locality: "Berlin", administrativeArea: "Berlin", country: "Germany",
        isoCountryCode: "DE", timeZoneIdentifier: "Europe/Berlin",
        latitude: 52.52, longitude: 13.405, radius: 30_000, population: 3_426_354)
    static let paris = PlaceDescription(
        name: "Paris", locality: "Paris", subAdministrativeArea: "Paris", administrativeArea: "Île-de-France",
        country: "France", isoCountryCode: "FR", timeZoneIdentifier: "Europe/Paris",
        latitude: 48.85341, longitude: 2.3488, radius: 20_000, population: 2_138_551)
    static let northAtlantic = PlaceDescription(
        name: "North Atlantic Ocean", ocean: "North Atlantic Ocean", latitude: 40, longitude: -40, radius: 100_000)
}

/// Tells whether code runs on the main queue, by a value only the main queue carries.
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
