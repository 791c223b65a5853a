import Foundation
import LocationAccess
import LocationCore
import LocationEngine
import LocationPersistence
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import LocationSources
import LocationWire
import Logging
import TestSupport
import Testing
@testable import LocationDaemon

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's real state directory: the SQLite store per user and the sealed last location.
@Suite(.timeLimit(.minutes(2)))
struct DaemonStateDirectoryTests {
    static let latitude = 52.520_008
    static let longitude = 13.404_954

    /// A daemon with the standard stores in `state` (as `locationd` runs).
    static func daemon(state: URL, sources: [any LocationSource]) throws -> DaemonFixture {
        try DaemonFixture(sources: sources) { configuration in
            configuration.stateDirectory = state
            configuration.storeFactory = DaemonConfiguration.standardStores(in: state)
            configuration.lastLocationStore = DaemonConfiguration.standardLastLocationStore(in: state, logger: .init(label: "test"))
        }
    }

    /// Every byte sequence a coordinate could be written as in the clear.
    static func plainForms(of value: Double) -> [[UInt8]] {
        [Array("\(value)".utf8), Array(String(format: "%.4f", value).utf8),
         withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init), withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init)]
    }

    @Test func theLastLocationSurvivesARestartSealedAndNothingInTheStateDirectoryHoldsItInTheClear() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let state = temporary.url
        var first: DaemonFixture? = try Self.daemon(
            state: state, sources: [FixedSource(latitude: Self.latitude, longitude: Self.longitude, horizontalAccuracy: 3)])
        let (client, identity, _) = try await first!.welcomedClient()
        client.send(.settings(.grant(app: identity.id, always: false, approximate: false)))
        #expect(await client.first { $0 == .settingsResult(nil) } != nil)
        client.send(.request(.startUpdates(1, UpdateRequest(distanceFilter: -1, pausesAutomatically: false))))
        #expect(await eventually(timeout: .seconds(10)) { !client.fixes.isEmpty })
        client.close()
        first = nil // stops the daemon: the newest fix is sealed

        let files = try FileManager.default.subpathsOfDirectory(atPath: state.path)
        #expect(files.contains(LastLocationStore.fileName))
        #expect(files.contains(SQLiteAuthorizationStore.fileName))
        for file in files {
            guard let data = FileManager.default.contents(atPath: state.appendingPathComponent(file).path) else { continue }
            let bytes = [UInt8](data)
            for form in Self.plainForms(of: Self.latitude) + Self.plainForms(of: Self.longitude) {
                #expect(!bytes.contains(form), "\(file) holds a coordinate in the clear")
            }
        }

        let second = try Self.daemon(state: state, sources: [])
        #expect(await eventually(timeout: .seconds(5)) { second.daemon.engine.status.lastFix?.latitude == Self.latitude })
        #expect(second.daemon.engine.status.lastFix?.longitude == Self.longitude)
    }

    @Test func grantsGoToTheSQLiteStoreAndDirectEditsReachRunningApps() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let state = temporary.url
        let fixture = try Self.daemon(state: state, sources: [])
        let (client, identity, _) = try await fixture.welcomedClient()
        client.send(.settings(.grant(app: identity.id, always: true, approximate: false)))
        #expect(await client.first { $0 == .settingsResult(nil) } != nil)
        let outside = SQLiteAuthorizationStore(directory: state, user: getuid())
        #expect(try outside.read().apps[identity.id]?.status == .authorizedAlways)

        // `locationctl revoke` without the daemon writes the file itself: the daemon's watch picks it up.
        try outside.update { try SettingsChange.revoke(app: identity.id).apply(to: &$0, now: Date()) }
        let denied = EffectiveAuthorization(status: .denied, accuracy: .fullAccuracy, servicesEnabled: true)
        #expect(await client.first(timeout: 5) { $0 == .event(.authorizationChanged(denied)) } != nil)
    }
}
