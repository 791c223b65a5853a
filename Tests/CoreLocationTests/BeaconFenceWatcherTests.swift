import Foundation
import LocationProtocol
import Testing
@testable import LocationAccess

/// The beacon fence rule without an engine: inside when a satisfying beacon is heard, outside
/// after 30 s of scanning without one, and silence while the scanner could not scan counts for
/// nothing.
@Suite struct BeaconFenceWatcherTests {
    static let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let door = FenceKeeper.Address(app: "app", group: .regions, identifier: "door")
    static let hall = FenceKeeper.Address(app: "app", group: .monitor("m"), identifier: "hall")
    static let start = Date(timeIntervalSinceReferenceDate: 1_000)

    static func heard(major: UInt16, at seconds: TimeInterval) -> RangedBeacon {
        RangedBeacon(identity: BeaconIdentity(uuid: uuid, major: major, minor: 1), proximity: .near, accuracy: 2,
                     rssi: -70, timestamp: start + seconds)
    }

    /// Runs a scan every second from `from` to `to` (inclusive) and returns the transitions with
    /// their times, as `identifier state @seconds`.
    static func scan(_ watcher: inout BeaconFenceWatcher, from: Int, to: Int,
                     beacons: (Int) -> [RangedBeacon]) -> [String] {
        (from...to).flatMap { second in
            watcher.evaluate(beacons(second), now: start + TimeInterval(second)).map {
                "\($0.address.identifier) \($0.state == .inside ? "inside" : "outside") @\(Int($0.date.timeIntervalSince(start)))"
            }
        }
    }

    @Test func enteredWhenHeardAndLeftThirtySecondsAfterTheLastAdvertisement() {
        var watcher = BeaconFenceWatcher()
        watcher.insert(Self.door, constraint: BeaconConstraint(uuid: Self.uuid, major: 7), state: .unknown, now: Self.start)
        // Heard from second 5 to 20 (not at 12 and 13: a missed scan is no exit), then never.
        let transitions = Self.scan(&watcher, from: 0, to: 60) { second in
            (5...20).contains(second) && second != 12 && second != 13 ? [Self.heard(major: 7, at: TimeInterval(second))] : []
        }
        #expect(transitions == ["door inside @5", "door outside @50"])
    }

    @Test func anUnknownFenceNeverHeardIsOutsideAfterThirtySecondsOfListening() {
        var watcher = BeaconFenceWatcher()
        watcher.insert(Self.door, constraint: BeaconConstraint(uuid: Self.uuid), state: .unknown, now: Self.start)
        #expect(Self.scan(&watcher, from: 0, to: 40) { _ in [] } == ["door outside @30"])
    }

    @Test func onlySatisfyingBeaconsCountAndOldAdvertisementsDoNot() {
        var watcher = BeaconFenceWatcher()
        watcher.insert(Self.door, constraint: BeaconConstraint(uuid: Self.uuid, major: 7), state: .outside, now: Self.start)
        watcher.insert(Self.hall, constraint: BeaconConstraint(uuid: Self.uuid, major: 8), state: .outside, now: Self.start)
        // Major 8 in range; a major-7 beacon the engine still lists, last heard a minute ago.
        let transitions = Self.scan(&watcher, from: 0, to: 5) { second in
            [Self.heard(major: 7, at: -60), Self.heard(major: 8, at: TimeInterval(second))]
        }
        #expect(transitions == ["hall inside @0"])
        #expect(watcher.constraints == [BeaconConstraint(uuid: Self.uuid, major: 7), BeaconConstraint(uuid: Self.uuid, major: 8)])
    }

    @Test func silenceWhileTheScannerWasUnavailableCountsForNothing() {
        var watcher = BeaconFenceWatcher()
        watcher.insert(Self.door, constraint: BeaconConstraint(uuid: Self.uuid), state: .unknown, now: Self.start)
        var transitions = Self.scan(&watcher, from: 0, to: 10) { [Self.heard(major: 1, at: TimeInterval($0))] }
        // The adapter is off from 11 to 100; scanning resumes, and the beacon is heard again at 105.
        watcher.scanningInterrupted()
        transitions += Self.scan(&watcher, from: 101, to: 110) { $0 >= 105 ? [Self.heard(major: 1, at: TimeInterval($0))] : [] }
        #expect(transitions == ["door inside @0"], "no exit for the time the scanner was off")
        // Gone for good: 30 s after the last advertisement.
        transitions += Self.scan(&watcher, from: 111, to: 150) { _ in [] }
        #expect(transitions == ["door inside @0", "door outside @140"])
    }

    @Test func anAssumedStateIsKeptUntilTheEvidenceSaysOtherwise() {
        var watcher = BeaconFenceWatcher()
        watcher.insert(Self.door, constraint: BeaconConstraint(uuid: Self.uuid), state: .inside, now: Self.start)
        #expect(Self.scan(&watcher, from: 0, to: 29) { _ in [] }.isEmpty)
        #expect(Self.scan(&watcher, from: 30, to: 31) { _ in [] } == ["door outside @30"])
        watcher.remove(Self.door)
        #expect(watcher.isEmpty && watcher.constraints.isEmpty)
    }
}
