import Foundation
import Testing
@testable import LocationSources
import SeededRandom

@Suite struct GPXParserTests {
    @Test func readsARecordedTrack() throws {
        let document = try GPXDocument(contentsOfFile: fixturePath("walk-recorded.gpx"))
        #expect(document.creator == "Hand-made test fixture (swift-corelocation)")
        #expect(document.tracks.count == 1)
        #expect(document.tracks[0].name == "Memorial Park walk")
        #expect(document.tracks[0].segments.map(\.count) == [120, 120])
        #expect(document.routes.isEmpty && document.waypoints.isEmpty)
        let points = document.replayPoints
        #expect(points.count == 240)
        #expect(points.allSatisfy { $0.time != nil && $0.elevation != nil })
        let first = try #require(points.first)
        #expect(first.latitude == 37.3236213 && first.longitude == -122.0456104 && first.elevation == 72.1)
        // 2025-06-14T16:02:11Z; the metadata's 16:30:00 belongs to no point.
        #expect(first.time == Date(timeIntervalSince1970: 1_749_916_931))
        #expect(points.last?.time == Date(timeIntervalSince1970: 1_749_916_931 + 632))
    }

    @Test func readsARouteWithoutTimes() throws {
        let document = try GPXDocument(contentsOfFile: fixturePath("route-untimed.gpx"))
        #expect(document.routes.count == 1)
        #expect(document.routes[0].name == "Stevens Creek to Apple Park")
        let points = document.replayPoints
        #expect(points.count == 5)
        #expect(points.allSatisfy { $0.time == nil && $0.elevation != nil })
        #expect(points[0].name == "De Anza & Stevens Creek")
    }

    @Test func readsWaypoints() throws {
        let document = try GPXDocument(contentsOfFile: fixturePath("waypoints-only.gpx"))
        #expect(document.waypoints.count == 4)
        #expect(document.waypoints[0].name == "Union Square (Stockton & Geary)")   // CDATA
        #expect(document.waypoints[3] == GPXDocument.Point(latitude: 37.79063, longitude: -122.40566, name: "Dragon Gate"))
        #expect(document.replayPoints == document.waypoints)
    }

    @Test func readsTimesInAnyZone() throws {
        let document = try GPXDocument(contentsOfFile: fixturePath("waypoints-timed.gpx"))
        let times = document.waypoints.compactMap(\.time)
        #expect(times.count == 5)
        let offsets = times.map { $0.timeIntervalSince(times[0]) }
        #expect(offsets == [0, 15, 30.5, 50.5, 80])
    }

    @Test func tracksComeBeforeRoutesAndRoutesBeforeWaypoints() throws {
        let xml = """
        <gpx xmlns="http://www.topografix.com/GPX/1/0">
          <wpt lat="1" lon="1"/>
          <rte><rtept lat="2" lon="2"/></rte>
          <trk><trkseg><trkpt lat="3" lon="3"/></trkseg><trkseg><trkpt lat="4" lon="4"/></trkseg></trk>
        </gpx>
        """
        let document = try GPXDocument(data: Data(xml.utf8))
        #expect(document.replayPoints.map(\.latitude) == [3, 4])
        var noTracks = document
        noTracks.tracks = []
        #expect(noTracks.replayPoints.map(\.latitude) == [2])
    }

    @Test func ignoresForeignElementsThatLookLikeGPX() throws {
        let xml = """
        <?xml version="1.0"?>
        <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" xmlns:x="urn:example">
          <g:wpt lat="10" lon="20">
            <x:ele>9999</x:ele><x:time>not a time</x:time>
            <g:extensions><x:wpt lat="999" lon="999"/></g:extensions>
            <g:ele>5</g:ele>
          </g:wpt>
        </g:gpx>
        """
        let document = try GPXDocument(data: Data(xml.utf8))
        #expect(document.waypoints == [GPXDocument.Point(latitude: 10, longitude: 20, elevation: 5)])
    }

    static let times: [(String, Double)] = [
        ("2025-06-14T16:02:11Z", 1_749_916_931),
        ("2025-06-14T16:02:11.250Z", 1_749_916_931.25),
        ("2025-06-14T16:02:11.123456789Z", 1_749_916_931.123456789),
        ("2025-06-14T18:02:11+02:00", 1_749_916_931),
        ("2025-06-14T09:02:11-0700", 1_749_916_931),
        ("2025-06-14T21:02:11+05", 1_749_916_931),
        ("2025-06-14T16:02:11", 1_749_916_931),
        ("2025-06-14t16:02:11z", 1_749_916_931),
        ("2025-06-14 16:02:11Z", 1_749_916_931),
        (" 2024-02-29T00:00:00Z\n", 1_709_164_800),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59Z", -1),
        ("2000-03-01T00:00:00Z", 951_868_800),
    ]

    @Test(arguments: times)
    func parsesISO8601(_ text: String, _ expected: Double) throws {
        let date = try #require(GPXTime.parse(text))
        #expect(abs(date.timeIntervalSince1970 - expected) < 1e-6)
    }

    @Test(arguments: ["", "2025-06-14", "2025-06-14T16:02Z", "2025-02-29T00:00:00Z", "2025-06-31T00:00:00Z",
                      "2025-13-01T00:00:00Z", "2025-06-14T24:00:00Z", "2025-06-14T16:60:00Z", "2025-06-14T16:02:11.Z",
                      "2025-06-14T16:02:11+2:00", "2025-06-14T16:02:11+24:00", "2025-06-14T16:02:11Zjunk",
                      "yesterday at noon", "1e9", "２０２５-06-14T16:02:11Z"])
    func refusesWhatIsNotADateTime(_ text: String) {
        #expect(GPXTime.parse(text) == nil)
    }
}

/// A malformed input and a check on the error it must give.
struct BadGPX: Sendable, CustomTestStringConvertible {
    var fixture: String
    var check: @Sendable (GPXError.Reason) -> Bool
    var testDescription: String { fixture }

    static let all: [BadGPX] = [
        BadGPX(fixture: "truncated.gpx") {
            if case .malformedXML(let line, _, _) = $0 { line >= 30 } else { false }
        },
        BadGPX(fixture: "garbage.bin") {
            if case .malformedXML(_, _, let message) = $0 { message.contains("binary") } else { false }
        },
        BadGPX(fixture: "not-xml.csv") {
            if case .malformedXML(1, _, _) = $0 { true } else { false }
        },
        BadGPX(fixture: "mismatched-tags.gpx") {
            if case .malformedXML(4, _, let message) = $0 { message.contains("do not match") } else { false }
        },
        BadGPX(fixture: "empty.gpx") { $0 == .empty },
        BadGPX(fixture: "not-gpx.kml") { $0 == .notGPX(rootElement: "kml") },
        BadGPX(fixture: "no-points.gpx") { $0 == .noPoints },
        BadGPX(fixture: "missing-lat.gpx") {
            if case .missingAttribute("trkpt", "lat", 5, _) = $0 { true } else { false }
        },
        BadGPX(fixture: "lat-200.gpx") {
            if case .invalidCoordinate("trkpt", "lat", "200", 5, _) = $0 { true } else { false }
        },
        BadGPX(fixture: "huge-number.gpx") {
            if case .invalidCoordinate("trkpt", "lon", "1e999", 5, _) = $0 { true } else { false }
        },
        BadGPX(fixture: "nan.gpx") {
            if case .invalidCoordinate("trkpt", "lat", "NaN", 5, _) = $0 { true } else { false }
        },
        BadGPX(fixture: "bad-time.gpx") {
            if case .invalidValue("time", "yesterday at noon", 5, _) = $0 { true } else { false }
        },
        BadGPX(fixture: "bad-ele.gpx") {
            if case .invalidValue("ele", "high", 5, _) = $0 { true } else { false }
        },
    ]
}

@Suite struct GPXErrorTests {
    @Test(arguments: BadGPX.all)
    func malformedFilesGiveTheRightError(_ bad: BadGPX) throws {
        let path = fixturePath(bad.fixture)
        let error = try #require(throws: GPXError.self) { try GPXDocument(contentsOfFile: path) }
        #expect(bad.check(error.reason), "\(error.reason)")
        #expect(error.path == path)
        #expect(error.description.hasPrefix(path) || error.description.contains(path))
        #expect(!error.description.contains("\n"))
    }

    @Test func unreadableFilesSayWhy() throws {
        let missing = try #require(throws: GPXError.self) { try GPXDocument(contentsOfFile: "/nonexistent/walk.gpx") }
        #expect(missing.reason == .unreadable("no such file"))
        #expect(missing.description == "cannot read GPX file /nonexistent/walk.gpx: no such file")

        let directory = URL(fileURLWithPath: fixturePath("walk-recorded.gpx")).deletingLastPathComponent().path
        let folder = try #require(throws: GPXError.self) { try GPXDocument(contentsOfFile: directory) }
        #expect(folder.reason == .unreadable("it is a directory"))
    }

    @Test func descriptionsAreOneClearLine() {
        let cases: [(GPXError, String)] = [
            (GPXError(path: "a.gpx", reason: .malformedXML(line: 3, column: 7, message: "opening and closing tags do not match")),
             "a.gpx: malformed XML at line 3, column 7: opening and closing tags do not match"),
            (GPXError(path: "a.gpx", reason: .invalidCoordinate(element: "trkpt", attribute: "lat", value: "200", line: 5, column: 40)),
             "a.gpx: line 5, column 40: invalid lat=\"200\" on <trkpt> (expected a number from -90 to 90)"),
            (GPXError(path: nil, reason: .missingAttribute(element: "wpt", attribute: "lon", line: 2, column: 9)),
             "GPX data: line 2, column 9: <wpt> has no lon attribute"),
            (GPXError(path: "a.gpx", reason: .notGPX(rootElement: "kml")),
             "a.gpx: not a GPX file (the root element is <kml>, expected <gpx>)"),
            (GPXError(path: "a\nb.gpx", reason: .noPoints), "a b.gpx: no track points, route points or waypoints"),
        ]
        for (error, text) in cases { #expect(error.description == text) }
        let long = GPXError(path: "x", reason: .invalidValue(element: "ele", value: String(repeating: "9", count: 500), line: 1, column: 1))
        #expect(long.description.count < 200)
    }

    /// Every prefix and many corrupted copies of a real file: a document or a `GPXError`, never a crash.
    @Test func damagedFilesNeverCrash() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: fixturePath("walk-recorded.gpx")))
        var generator = SplitMix64(seed: 2025)
        var outcomes = (parsed: 0, refused: 0)
        func attempt(_ data: Data) {
            do {
                _ = try GPXDocument(data: data, sourceName: "damaged")
                outcomes.parsed += 1
            } catch {
                #expect(!error.description.isEmpty && !error.description.contains("\n"))
                outcomes.refused += 1
            }
        }
        for length in stride(from: 0, to: original.count, by: 997) { attempt(original.prefix(length)) }
        for _ in 0..<150 {
            var bytes = [UInt8](original)
            for _ in 0..<Int(generator.next() % 4 + 1) {
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            attempt(Data(bytes))
        }
        #expect(outcomes.refused > 30)
        #expect(outcomes.parsed + outcomes.refused == 150 + (original.count + 996) / 997)
    }
}
