import Foundation
import LocationCore
import LocationDaemonClient
import LocationEngine
import LocationGeodesy
import LocationPolicy
import LocationProtocol
@testable import LocationDaemon
import TestSupport
import Testing

/// Visits through a real daemon: the same per-app detection and authorization as in-process, on
/// the daemon's real clock with the thresholds and duty cycle shortened (a stay of a second).
@Suite(.timeLimit(.minutes(2)))
struct DaemonVisitTests {
    static let app = AppIdentity(id: "ignored", displayName: "ignored", executablePath: "/ignored")
    static let home = (latitude: 46.0500, longitude: 14.5000)
    static let office = (latitude: 46.0650, longitude: 14.5200)

    /// A receiver at home, a fix every 50 ms while it runs.
    static func receiver() -> MovableSource {
        MovableSource(latitude: home.latitude, longitude: home.longitude, interval: 0.05)
    }

    /// Seconds where the defaults have minutes: a stay of one second is a visit.
    static var fastTuning: EngineTuning {
        var tuning = EngineTuning()
        tuning.visits.dwell = 1
        tuning.visits.exitSpan = 0.1
        tuning.visits.movingInterval = 0.2
        tuning.visits.formingInterval = 0.2
        tuning.visits.confirmingInterval = 0.1
        tuning.visits.settledInterval = 0.2
        tuning.significantWakeLimit = 1
        return tuning
    }

    final class Received: Sendable {
        private let visits = Locked<[Visit]>([])
        var handler: @Sendable (ServiceEvent) -> Void {
            { event in if case .visit(let visit) = event { self.visits.withLock { $0.append(visit) } } }
        }
        var all: [Visit] { visits.withLock { $0 } }
    }

    static func connect(_ fixture: DaemonFixture, _ received: Received) -> any ClientConnection {
        DaemonServiceProvider(socketPath: fixture.socketPath)
            .connect(app: Self.app, info: AppInfo(), process: ProcessStamp(pid: 1, startTime: 1), events: received.handler)
    }

    static func metres(_ visit: Visit, _ place: (latitude: Double, longitude: Double)) -> Double {
        Geodesic.wgs84.distance(latitude1: visit.latitude, longitude1: visit.longitude,
                                latitude2: place.latitude, longitude2: place.longitude)
    }

    static func setAuthorization(_ fixture: DaemonFixture, _ status: AuthorizationStatus, _ accuracy: AccuracyAuthorization) throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        try fixture.store.update { database in
            database.apps[executable] = AppRecord(status: status, accuracy: accuracy,
                                                  displayName: "tests", executablePath: executable, updated: Date())
        }
    }

    /// One daemon through three authorizations (one fixture: daemons are threads and sockets):
    /// denied — nothing, and no receiver; reduced accuracy — only the approximate location; full
    /// accuracy — home's departure and the office's arrival, precise.
    @Test func visitsFollowTheAppsAuthorization() async throws {
        let source = Self.receiver()
        let fixture = try DaemonFixture(sources: [source]) { $0.engineTuning = Self.fastTuning }
        try Self.setAuthorization(fixture, .denied, .fullAccuracy)
        let received = Received()
        let connection = Self.connect(fixture, received)
        defer { connection.close() }
        connection.send(.startVisits)
        try await Task.sleep(for: .seconds(1.5))
        #expect(received.all.isEmpty)
        #expect(fixture.daemon.engine.status.subscriberCount == 0)

        try Self.setAuthorization(fixture, .authorizedWhenInUse, .reducedAccuracy)
        #expect(await eventually(timeout: .seconds(20)) { !received.all.isEmpty })
        for visit in received.all {
            #expect(visit.horizontalAccuracy >= 1000)
            #expect(Self.metres(visit, Self.home) > 1, "never the precise centre")
        }

        try Self.setAuthorization(fixture, .authorizedWhenInUse, .fullAccuracy)
        source.move(latitude: Self.office.latitude, longitude: Self.office.longitude)
        #expect(await eventually(timeout: .seconds(20)) {
            received.all.contains { $0.departure == nil && Self.metres($0, Self.office) < 5 }
        })
        let visits = received.all
        let departure = try #require(visits.last { $0.departure != nil })
        let arrival = try #require(visits.last)
        #expect(arrival.departure == nil && Self.metres(arrival, Self.office) < 5, "the office's arrival, precise")
        #expect(departure.departure! <= arrival.arrival!, "home's departure before it")
        connection.send(.stopVisits)
        #expect(await eventually(timeout: .seconds(5)) { fixture.daemon.engine.status.subscriberCount == 0 })
    }
}
