import CoreLocation
import Foundation
import Testing

/// The value types of `CLMonitor`: conditions, their coding, and the state enumeration.
@Suite struct CLMonitorConditionTests {
    @Test func aCircleRoundTripsThroughJSON() throws {
        let circle = CLMonitor.CircularGeographicCondition(
            center: CLLocationCoordinate2D(latitude: -33.8568, longitude: 151.2153), radius: 250.5)
        let data = try JSONEncoder().encode(circle)
        let decoded = try JSONDecoder().decode(CLMonitor.CircularGeographicCondition.self, from: data)
        #expect(decoded.center.latitude == -33.8568 && decoded.center.longitude == 151.2153)
        #expect(decoded.radius == 250.5)
    }

    @Test func aCircleWithoutItsCentreDoesNotDecode() {
        let data = Data(#"{"radius": 100}"#.utf8)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CLMonitor.CircularGeographicCondition.self, from: data)
        }
    }

    @Test func beaconIdentitiesHaveWildcards() throws {
        let uuid = UUID()
        let any = CLMonitor.BeaconIdentityCondition(uuid: uuid)
        let major = CLMonitor.BeaconIdentityCondition(uuid: uuid, major: 3)
        let exact = CLMonitor.BeaconIdentityCondition(uuid: uuid, major: 3, minor: 9)
        #expect(any.uuid == uuid && any.major == nil && any.minor == nil)
        #expect(major.major == 3 && major.minor == nil)
        #expect(exact.major == 3 && exact.minor == 9)
        let decoded = try JSONDecoder().decode(
            CLMonitor.BeaconIdentityCondition.self, from: try JSONEncoder().encode(exact))
        #expect(decoded.uuid == uuid && decoded.major == 3 && decoded.minor == 9)
    }

    @Test func statesHaveApplesRawValuesAndSpellings() {
        #expect(CLMonitor.Event.State.unknown.rawValue == 0)
        #expect(CLMonitor.Event.State.satisfied.rawValue == 1)
        #expect(CLMonitor.Event.State.unsatisfied.rawValue == 2)
        #expect(CLMonitor.Event.State.unmonitored.rawValue == 3)
        #expect(CLMonitor.Event.State(rawValue: 4) == nil)
        let describe: (CLMonitor.Event.State) -> String = { state in
            switch state {
            case .unknown: "unknown"
            case .satisfied: "inside"
            case .unsatisfied: "outside"
            case .unmonitored: "unmonitored"
            }
        }
        #expect(describe(.satisfied) == "inside")
    }

    @Test func conditionsAreUsableAsExistentials() {
        let conditions: [any CLCondition] = [
            CLMonitor.CircularGeographicCondition(center: CLLocationCoordinate2D(latitude: 1, longitude: 2), radius: 3),
            CLMonitor.BeaconIdentityCondition(uuid: UUID()),
        ]
        #expect(conditions[0] is CLMonitor.CircularGeographicCondition)
        #expect(conditions[1] is CLMonitor.BeaconIdentityCondition)
    }
}
