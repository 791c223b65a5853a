import Foundation
import LocationProtocol
import Testing
@testable import LocationDaemonClient

/// Ranging streams across reconnections: re-sent after a new welcome, stopped with their own
/// request, and their events shown only while the app ranges.
@Suite struct LinkStateRangingTests {
    static let constraint = BeaconConstraint(uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 7)
    static let beacon = RangedBeacon(
        identity: BeaconIdentity(uuid: constraint.uuid, major: 7, minor: 1), proximity: .near, accuracy: 2,
        rssi: -70, timestamp: Date(timeIntervalSinceReferenceDate: 1_000))

    @Test func aRestartedDaemonIsAskedToRangeAgain() {
        var state = LinkStateTests.connected()
        #expect(state.appSent(.startRanging(4, Self.constraint)) == .startRanging(4, Self.constraint))
        _ = state.appSent(.startRanging(5, Self.constraint))
        _ = state.appSent(.stopRanging(5))
        state.disconnected()
        #expect(state.welcomed(.whenInUse).resend == [.startRanging(4, Self.constraint)])
    }

    @Test func aRangingStreamIsStoppedWithStopRanging() {
        var state = LinkStateTests.connected()
        _ = state.appSent(.startRanging(4, Self.constraint))
        _ = state.appSent(.startHeading(5, HeadingRequest(filter: 1)))
        _ = state.appSent(.startUpdates(6, LinkStateTests.continuous))
        #expect(state.stopRequest(for: 4) == .stopRanging(4))
        #expect(state.stopRequest(for: 5) == .stopHeading(5))
        #expect(state.stopRequest(for: 6) == .stopUpdates(6))
    }

    @Test func scansAndFailuresReachTheAppOnlyWhileItRanges() {
        var state = LinkStateTests.connected()
        _ = state.appSent(.startRanging(4, Self.constraint))
        #expect(state.received(.stream(4, .beacons([Self.beacon]))) == .stream(4, .beacons([Self.beacon])))
        #expect(state.received(.stream(4, .beacons([]))) == .stream(4, .beacons([])), "an empty scan is news too")
        #expect(state.received(.stream(4, .failed(.rangingUnavailable))) == .stream(4, .failed(.rangingUnavailable)))
        _ = state.appSent(.stopRanging(4))
        #expect(state.received(.stream(4, .beacons([Self.beacon]))) == nil)
        #expect(state.received(.stream(4, .failed(.denied))) == nil)
    }
}
