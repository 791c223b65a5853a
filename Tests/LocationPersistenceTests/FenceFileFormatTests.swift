import Foundation
@testable import LocationPersistence
import LocationProtocol
import Testing

@Suite struct FenceFileFormatTests {
    static let app = "org.example.maps"

    /// A valid file with one fence of each condition, as the encoder writes it (keys sorted, no
    /// whitespace); the cases below change one thing in it.
    static let base = [
        #"{"app":"org.example.maps","format":"corelocation.fences","groups":["#,
        #"{"fences":[{"assumedState":"unknown","condition":{"kind":"circle","latitude":52.5,"longitude":13.4,"radius":100},"#,
        #""identifier":"home","lastEvent":{"date":786000000.5,"issue":"denied","state":"inside"},"#,
        #""notifyOnEntry":true,"notifyOnExit":false}],"#,
        #""kind":"regions","pending":[{"date":786000001,"identifier":"home","state":"outside"}]},"#,
        #"{"fences":[{"assumedState":"outside","condition":{"kind":"beacon","major":7,"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"#,
        #""identifier":"door","lastEvent":{"date":0,"state":"unmonitored"},"notifyOnEntry":true,"notifyOnExit":true}],"#,
        #""kind":"monitor","name":"Work","pending":[]}],"#,
        #""version":1}"#,
    ].joined()

    /// A fence of the regions group, to add to it.
    static let otherFence = #"{"assumedState":"unknown","condition":{"kind":"circle","latitude":1,"longitude":2,"radius":3},"identifier":"other","lastEvent":{"date":0,"state":"inside"},"notifyOnEntry":true,"notifyOnExit":true}"#

    @Test func roundTripOfEveryKindOfValue() throws {
        let fences = FenceFixtures.everything
        let data = try FenceFileFormat.encode(fences, appID: Self.app)
        let decoded = try FenceFileFormat.decode(data, appID: Self.app)
        #expect(decoded == fences)
        // Insertion order is kept, not sorted.
        #expect(decoded[.regions].records.map(\.definition.identifier) == fences[.regions].records.map(\.definition.identifier))
        #expect(decoded[.regions].pendingEvents == fences[.regions].pendingEvents)
        // One value, one encoding.
        #expect(try FenceFileFormat.encode(decoded, appID: Self.app) == data)
    }

    @Test func readsTheVersionOneLayout() throws {
        let fences = try FenceFileFormat.decode(Data(Self.base.utf8), appID: Self.app)
        let date = Date(timeIntervalSinceReferenceDate: 786_000_000.5)
        var expected = StoredFences()
        expected[.regions] = StoredFences.Group(
            records: [FenceRecord(
                definition: FenceDefinition(
                    identifier: "home", condition: .circle(latitude: 52.5, longitude: 13.4, radius: 100),
                    notifyOnEntry: true, notifyOnExit: false, assumedState: .unknown),
                lastEvent: FenceEvent(identifier: "home", state: .inside, date: date, issue: .denied))],
            pendingEvents: [FenceEvent(identifier: "home", state: .outside, date: Date(timeIntervalSinceReferenceDate: 786_000_001))])
        expected[.monitor("Work")] = StoredFences.Group(records: [FenceRecord(
            definition: FenceDefinition(
                identifier: "door", condition: .beacon(uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 7, minor: nil),
                assumedState: .outside),
            lastEvent: FenceEvent(identifier: "door", state: .unmonitored, date: Date(timeIntervalSinceReferenceDate: 0)))])
        #expect(fences == expected)
        // And writes it back byte for byte.
        #expect(String(decoding: try FenceFileFormat.encode(fences, appID: Self.app), as: UTF8.self) == Self.base)
    }

    @Test func groupsAreWrittenInOrderAndEmptyOnesLeftOut() throws {
        var fences = StoredFences()
        fences.groups[.monitor("b")] = StoredFences.Group(records: [FenceFixtures.circle("1", 1, 1)])
        fences.groups[.monitor("a")] = StoredFences.Group(records: [FenceFixtures.circle("1", 1, 1)])
        fences.groups[.regions] = StoredFences.Group(records: [FenceFixtures.circle("1", 1, 1)])
        fences.groups[.monitor("empty")] = StoredFences.Group()
        let text = String(decoding: try FenceFileFormat.encode(fences, appID: Self.app), as: UTF8.self)
        let regions = try #require(text.range(of: "\"regions\""))
        let a = try #require(text.range(of: "\"name\":\"a\""))
        let b = try #require(text.range(of: "\"name\":\"b\""))
        #expect(regions.lowerBound < a.lowerBound && a.lowerBound < b.lowerBound)
        #expect(!text.contains("empty"))
        var expected = fences
        expected.groups[.monitor("empty")] = nil
        #expect(try FenceFileFormat.decode(Data(text.utf8), appID: Self.app) == expected)
    }

    // MARK: - Refused on reading

    /// `base` with `original` replaced by `replacement` (the first occurrence, which must exist).
    static func variant(_ original: String, _ replacement: String, in text: String = base) -> Data {
        let range = text.range(of: original)!
        return Data(text.replacingCharacters(in: range, with: replacement).utf8)
    }

    static let invalidCases: [(String, String, String)] = [
        // (replace, with, the error's text says)
        ("\"version\":1", "\"version\":1,\"extra\":true", "unknown field \"extra\""),
        ("\"identifier\":\"home\",", "\"identifier\":\"home\",\"color\":\"red\",", "unknown field \"color\""),
        ("\"radius\":100", "\"radius\":100,\"altitude\":3", "unknown field \"altitude\""),
        ("\"notifyOnExit\":false", "\"notifyOnExit\":0", "notifyOnExit"),
        ("\"notifyOnExit\":false", "\"notifyOnExit\":null", "notifyOnExit"),
        (",\"notifyOnExit\":false", "", "missing field \"notifyOnExit\""),
        (",\"pending\":[]", "", "missing field \"pending\""),
        ("\"latitude\":52.5", "\"latitude\":90.5", "groups[0].fences[0].condition.latitude: 90.5 is not in [-90, 90]"),
        ("\"latitude\":52.5", "\"latitude\":-90.000001", "latitude"),
        ("\"longitude\":13.4", "\"longitude\":180.1", "longitude: 180.1 is not in [-180, 180]"),
        // JSON numbers beyond Double are refused by the JSON reader, which does not say where.
        ("\"longitude\":13.4", "\"longitude\":1e999", "not valid JSON"),
        ("\"radius\":100", "\"radius\":0", "radius: 0.0 is not a positive finite number"),
        ("\"radius\":100", "\"radius\":-5", "radius: -5.0"),
        ("\"radius\":100", "\"radius\":1e999", "not valid JSON"),
        ("\"radius\":100", "\"radius\":\"100\"", "radius"),
        (",\"radius\":100", "", "a circle needs latitude, longitude and radius"),
        ("\"radius\":100", "\"radius\":100,\"minor\":1", "a circle has no uuid, major or minor"),
        ("\"major\":7", "\"major\":7,\"radius\":1", "a beacon has no latitude, longitude or radius"),
        ("\"major\":7", "\"major\":65536", "condition.major: 65536 is not in [0, 65535]"),
        ("\"major\":7", "\"major\":-1", "condition.major: -1 is not in [0, 65535]"),
        ("\"major\":7", "\"major\":7,\"minor\":1.5", "not valid JSON"),
        ("\"uuid\":\"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\"", "\"uuid\":\"not-a-uuid\"", "\"not-a-uuid\" is not a UUID"),
        (",\"uuid\":\"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\"", "", "uuid: missing for a beacon"),
        ("\"kind\":\"circle\"", "\"kind\":\"polygon\"", "condition.kind: unknown value \"polygon\""),
        ("\"kind\":\"regions\"", "\"kind\":\"visits\"", "groups[0].kind: unknown value \"visits\""),
        ("\"kind\":\"regions\"", "\"kind\":\"regions\",\"name\":\"x\"", "a regions group has no name"),
        (",\"name\":\"Work\"", "", "missing for a monitor"),
        ("\"name\":\"Work\"", "\"name\":\"\"", "groups[1].name: empty"),
        ("\"assumedState\":\"unknown\"", "\"assumedState\":\"sideways\"", "assumedState: unknown value \"sideways\""),
        ("\"state\":\"inside\"", "\"state\":\"Inside\"", "lastEvent.state: unknown value \"Inside\""),
        ("\"state\":\"outside\"", "\"state\":\"1\"", "pending[0].state"),
        ("\"issue\":\"denied\"", "\"issue\":\"restricted\"", "lastEvent.issue: unknown value \"restricted\""),
        ("\"date\":786000000.5", "\"date\":1e999", "not valid JSON"),
        ("\"date\":786000001", "\"date\":\"yesterday\"", "date"),
        ("\"identifier\":\"home\",\"lastEvent\"", "\"identifier\":\"\",\"lastEvent\"", "fences[0].identifier: empty"),
        ("\"identifier\":\"home\",\"state\"", "\"identifier\":\"\",\"state\"", "pending[0].identifier: empty"),
        ("\"app\":\"org.example.maps\"", "\"app\":\"\"", "app: empty"),
        ("\"app\":\"org.example.maps\",", "", "missing field \"app\""),
        ("\"version\":1", "\"version\":\"1\"", "version: missing or not an integer"),
        ("\"version\":1", "\"version\":null", "version: missing or not an integer"),
        ("\"version\":1", "\"version\":1.5", "version: missing or not an integer"),
        // Duplicates: one identifier twice in a group, one group twice, and an empty group.
        ("\"identifier\":\"door\"", "\"identifier\":\"home\"", ""), // another group: fine (checked below)
    ]

    @Test(arguments: invalidCases.dropLast())
    func invalidValuesAreRefusedWithTheirPlace(change: (String, String, String)) throws {
        let error = #expect(throws: FenceFileError.self) {
            try FenceFileFormat.decode(Self.variant(change.0, change.1), appID: Self.app)
        }
        guard case .invalid(let reason)? = error else {
            Issue.record("expected invalid, got \(String(describing: error))")
            return
        }
        #expect(reason.contains(change.2), "\(reason)")
    }

    @Test func oneIdentifierMayBeInSeveralGroupsButOnceInEach() throws {
        let (from, to, _) = try #require(Self.invalidCases.last)
        #expect(try FenceFileFormat.decode(Self.variant(from, to), appID: Self.app)[.monitor("Work")].record("home") != nil)

        let endOfHome = "\"notifyOnExit\":false}"
        let two = String(decoding: Self.variant(endOfHome, endOfHome + "," + Self.otherFence), as: UTF8.self)
        #expect(try FenceFileFormat.decode(Data(two.utf8), appID: Self.app)[.regions].records.count == 2)
        #expect(throws: FenceFileError.invalid("groups[0].fences[1].identifier: \"home\" is already used in this group")) {
            try FenceFileFormat.decode(Self.variant("\"identifier\":\"other\"", "\"identifier\":\"home\"", in: two), appID: Self.app)
        }
        // Canonically equivalent identifiers are one identifier, as they are for the service's String keys.
        let composed = String(decoding: Self.variant("\"identifier\":\"home\"", "\"identifier\":\"caf\\u00e9\"", in: two), as: UTF8.self)
        let equivalent = Self.variant("\"identifier\":\"other\"", "\"identifier\":\"cafe\\u0301\"", in: composed)
        #expect(throws: FenceFileError.invalid("groups[0].fences[1].identifier: \"café\" is already used in this group")) {
            try FenceFileFormat.decode(equivalent, appID: Self.app)
        }

        #expect(throws: FenceFileError.invalid("groups[1]: the regions group appears twice")) {
            try FenceFileFormat.decode(Self.variant("\"kind\":\"monitor\",\"name\":\"Work\"", "\"kind\":\"regions\""), appID: Self.app)
        }
        let emptyGroup = #"{"fences":[],"kind":"monitor","name":"Empty","pending":[]},"#
        #expect(throws: FenceFileError.invalid("groups[1]: an empty group")) {
            try FenceFileFormat.decode(Self.variant(#"{"fences":[{"assumedState":"outside""#, emptyGroup + #"{"fences":[{"assumedState":"outside""#), appID: Self.app)
        }
    }

    @Test func identifiersAreLimitedTo1024BytesOfUTF8() throws {
        let limit = String(repeating: "ü", count: 512)
        #expect(try FenceFileFormat.decode(Self.variant("\"name\":\"Work\"", "\"name\":\"\(limit)\""), appID: Self.app)
            .groups[.monitor(limit)] != nil)
        #expect(throws: FenceFileError.invalid("groups[1].name: 1026 bytes of UTF-8, above the limit of 1024")) {
            try FenceFileFormat.decode(Self.variant("\"name\":\"Work\"", "\"name\":\"\(limit)ü\""), appID: Self.app)
        }
        #expect(throws: FenceFileError.invalid("groups[1].fences[0].identifier: 1025 bytes of UTF-8, above the limit of 1024")) {
            try FenceFileFormat.decode(Self.variant("\"identifier\":\"door\"", "\"identifier\":\"\(String(repeating: "d", count: 1025))\""), appID: Self.app)
        }
    }

    @Test func otherFormatsVersionsAndAppsAreNamedAsSuch() throws {
        for text in ["", "not json", "[]", "42", "{}", #"{"format":"corelocation.policy","version":1}"#, #"{"format":7}"#] {
            let error = #expect(throws: FenceFileError.self) { try FenceFileFormat.decode(Data(text.utf8), appID: Self.app) }
            guard case .notAFenceFile? = error else {
                Issue.record("\(text): expected notAFenceFile, got \(String(describing: error))")
                continue
            }
        }
        #expect(throws: FenceFileError.unsupportedVersion(2)) {
            try FenceFileFormat.decode(Self.variant("\"version\":1", "\"version\":2"), appID: Self.app)
        }
        // A future version is named as such even when the rest is nothing this version knows.
        #expect(throws: FenceFileError.unsupportedVersion(3)) {
            try FenceFileFormat.decode(Data(#"{"format":"corelocation.fences","version":3,"zones":{}}"#.utf8), appID: Self.app)
        }
        #expect(throws: FenceFileError.unsupportedVersion(0)) {
            try FenceFileFormat.decode(Self.variant("\"version\":1", "\"version\":0"), appID: Self.app)
        }
        let foreign = #expect(throws: FenceFileError.foreign(storedAppID: "org.example.maps", expectedAppID: "/usr/bin/other")) {
            try FenceFileFormat.decode(Data(Self.base.utf8), appID: "/usr/bin/other")
        }
        #expect(foreign?.description == "the file belongs to app \"org.example.maps\", not \"/usr/bin/other\"")
        #expect(FenceFileError.unsupportedVersion(2).description == "format version 2; this version reads 1")
    }

    @Test func countsAndSizeAreBounded() throws {
        func group(fences: Int, pending: Int) -> String {
            let fence = (0..<fences).map {
                #"{"assumedState":"unknown","condition":{"kind":"circle","latitude":1,"longitude":2,"radius":3},"identifier":"f\#($0)","lastEvent":{"date":0,"state":"inside"},"notifyOnEntry":true,"notifyOnExit":true}"#
            }
            let event = Array(repeating: #"{"date":0,"identifier":"f","state":"inside"}"#, count: pending)
            return #"{"fences":[\#(fence.joined(separator: ","))],"kind":"regions","pending":[\#(event.joined(separator: ","))]}"#
        }
        func file(_ groups: [String]) -> Data {
            Data(#"{"app":"a","format":"corelocation.fences","groups":[\#(groups.joined(separator: ","))],"version":1}"#.utf8)
        }
        // Smaller limits than the standard ones (a million fences, 512 MiB), checked the same way.
        let limits = FenceFileFormat.Limits(bytes: 4 << 20, groups: 256, fencesPerGroup: 1000, pendingEventsPerGroup: 1000)
        #expect(try FenceFileFormat.decode(file([group(fences: 1000, pending: 1000)]), appID: "a", limits: limits)[.regions].records.count == 1000)
        #expect(throws: FenceFileError.invalid("groups[0].fences: 1001 fences, above the limit of 1000")) {
            try FenceFileFormat.decode(file([group(fences: 1001, pending: 0)]), appID: "a", limits: limits)
        }
        #expect(throws: FenceFileError.invalid("groups[0].pending: 1001 events, above the limit of 1000")) {
            try FenceFileFormat.decode(file([group(fences: 0, pending: 1001)]), appID: "a")
        }
        let monitors = (0..<257).map { #"{"fences":[],"kind":"monitor","name":"m\#($0)","pending":[{"date":0,"identifier":"f","state":"inside"}]}"# }
        #expect(throws: FenceFileError.invalid("257 groups, above the limit of 256")) { try FenceFileFormat.decode(file(monitors), appID: "a") }
        let huge = Data(repeating: 0x20, count: limits.bytes + 1)
        #expect(throws: FenceFileError.invalid("4194305 bytes, above the limit of 4194304")) { try FenceFileFormat.decode(huge, appID: "a", limits: limits) }
    }

    // MARK: - Refused on writing

    @Test func whatWouldNotReadBackIsNotWritten() throws {
        let bad: [(StoredFences.Group, String)] = [
            (.init(records: [FenceFixtures.circle("a", .nan, 0)]), "latitude: nan"),
            (.init(records: [FenceFixtures.circle("a", 0, 0, radius: 0)]), "radius"),
            (.init(records: [FenceFixtures.circle("a", 0, 0, radius: .infinity)]), "radius"),
            (.init(records: [FenceFixtures.circle("", 0, 0)]), "identifier: empty"),
            (.init(records: [FenceFixtures.circle("a", 0, 0), FenceFixtures.circle("a", 1, 1)]), "already used"),
            (.init(pendingEvents: [FenceEvent(identifier: "a", state: .inside, date: Date(timeIntervalSinceReferenceDate: .infinity))]), "date"),
        ]
        for (group, reason) in bad {
            var fences = StoredFences()
            fences[.regions] = group
            let error = #expect(throws: FenceFileError.self) { try FenceFileFormat.encode(fences, appID: Self.app) }
            #expect(error?.description.contains(reason) == true, "\(String(describing: error)) should say \(reason)")
        }
        var mismatched = FenceFixtures.circle("a", 0, 0)
        mismatched.lastEvent.identifier = "b"
        var fences = StoredFences()
        fences[.regions] = StoredFences.Group(records: [mismatched])
        #expect(throws: FenceFileError.invalid("groups[0].fences[0]: the last event of \"a\" names \"b\"")) {
            try FenceFileFormat.encode(fences, appID: Self.app)
        }
        #expect(throws: FenceFileError.invalid("app: empty")) { try FenceFileFormat.encode(FenceFixtures.small, appID: "") }
        #expect(throws: FenceFileError.self) { try FenceFileFormat.encode(FenceFixtures.small, appID: String(repeating: "/", count: 4097)) }
    }

    @Test func aValueTooLargeForTheReaderIsNotWritten() throws {
        var fences = StoredFences()
        let long = String(repeating: "x", count: 1000)
        for group in 0..<5 {
            fences[.monitor("m\(group)")] = StoredFences.Group(records: (0..<1000).map { FenceFixtures.circle("\(long)\($0)", 0, 0) })
        }
        let limits = FenceFileFormat.Limits(bytes: 4 << 20)
        let error = #expect(throws: FenceFileError.self) { try FenceFileFormat.encode(fences, appID: Self.app, limits: limits) }
        guard case .tooLarge(let bytes, 4 << 20)? = error else {
            Issue.record("expected tooLarge, got \(String(describing: error))")
            return
        }
        #expect(bytes > 4 << 20)
    }
}
