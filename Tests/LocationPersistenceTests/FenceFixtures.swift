import Foundation
import LocationPersistence
import LocationProtocol

/// Fences with every kind of value the file holds: both groups, both conditions (beacons with and
/// without major and minor), every state and issue, notification flags both ways, identifiers in
/// several scripts and at the length limit.
enum FenceFixtures {
    static let date = Date(timeIntervalSinceReferenceDate: 786_000_000.123_456)

    static func circle(
        _ identifier: String, _ latitude: Double, _ longitude: Double, radius: Double = 150,
        state: FenceState = .inside, issue: FenceIssue? = nil
    ) -> FenceRecord {
        FenceRecord(
            definition: FenceDefinition(
                identifier: identifier, condition: .circle(latitude: latitude, longitude: longitude, radius: radius)),
            lastEvent: FenceEvent(identifier: identifier, state: state, date: date, issue: issue))
    }

    static var everything: StoredFences {
        var fences = StoredFences()
        var regions: [FenceRecord] = [
            circle("home", 52.520008, 13.404954),
            circle("poles", 90, -180, radius: 0.001, state: .unknown),
            circle("south", -90, 180, radius: 20_000_000, state: .outside),
        ]
        // Every state as the assumed state and as the last one, with and without each issue.
        for (index, state) in FenceState.allCases.enumerated() {
            for issue in [nil] + FenceIssue.allCases.map(Optional.some) {
                let identifier = "s\(index)-\(issue.map { "\($0)" } ?? "none")"
                regions.append(FenceRecord(
                    definition: FenceDefinition(
                        identifier: identifier, condition: .circle(latitude: -33.8688, longitude: 151.2093, radius: 42.5),
                        notifyOnEntry: index % 2 == 0, notifyOnExit: index % 3 == 0, assumedState: state),
                    lastEvent: FenceEvent(
                        identifier: identifier, state: state,
                        date: Date(timeIntervalSinceReferenceDate: -1e9 + Double(index)), issue: issue)))
            }
        }
        fences[.regions] = StoredFences.Group(
            records: regions,
            pendingEvents: [
                FenceEvent(identifier: "home", state: .outside, date: date),
                FenceEvent(identifier: "home", state: .inside, date: date.addingTimeInterval(60.5)),
                FenceEvent(identifier: "gone", state: .unmonitored, date: date, issue: .denied),
            ])

        let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
        fences[.monitor("Beacons")] = StoredFences.Group(records: [
            beacon("any", uuid, nil, nil), beacon("major", uuid, 0, nil), beacon("both", uuid, 65535, 1),
        ])
        let long = String(repeating: "é", count: 512)  // 1,024 bytes of UTF-8: the limit
        fences[.monitor("Café ☕ / \"quoted\" \\ \n")] = StoredFences.Group(
            records: [circle("日本語", 35.6762, 139.6503), circle(long, 0, 0, radius: 1)],
            pendingEvents: [FenceEvent(identifier: long, state: .unknown, date: Date(timeIntervalSinceReferenceDate: 0))])
        fences[.monitor("only pending")] = StoredFences.Group(
            pendingEvents: [FenceEvent(identifier: "x", state: .inside, date: date, issue: .persistenceUnavailable)])
        return fences
    }

    static func beacon(_ identifier: String, _ uuid: UUID, _ major: UInt16?, _ minor: UInt16?) -> FenceRecord {
        FenceRecord(
            definition: FenceDefinition(identifier: identifier, condition: .beacon(uuid: uuid, major: major, minor: minor)),
            lastEvent: FenceEvent(identifier: identifier, state: .unmonitored, date: date, issue: .unsupported))
    }

    static var small: StoredFences {
        var fences = StoredFences()
        fences[.regions] = StoredFences.Group(records: [circle("work", 48.8566, 2.3522)])
        return fences
    }
}
