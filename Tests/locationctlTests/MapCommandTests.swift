import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LocationGeodesy
import LocationProtocol
import LocationSources
import TestSupport
import Testing
import TrackFixtures
@testable import locationctl

/// A real drive with four fences it crosses, as `locationctl map` draws it.
struct DriveWithFences {
    let fixes: [Fix]
    let fences: [MapFence]
    let events: [MapEvent]
    let truth: [Crossing]

    init() throws {
        let track = RealTrack.visnjanDrive
        fixes = try SourceReading.fixes(of: try SourceSpec(track.spec))
        let circles = TrueCrossings.circles(crossedBy: track.positions)
        fences = circles.map { MapFence(latitude: $0.latitude, longitude: $0.longitude, radius: $0.radius, identifier: $0.identifier) }
        events = MapEvents.events(fixes: fixes, fences: fences)
        truth = TrueCrossings.crossings(of: track.positions, circles: circles)
    }

    var drawing: MapDrawing { MapDrawing(source: RealTrack.visnjanDrive.spec, fixes: fixes, fences: fences, events: events) }
}

@Suite struct MapFenceTests {
    static let valid: [(String, MapFence)] = [
        ("45.27,13.71,150", MapFence(latitude: 45.27, longitude: 13.71, radius: 150, identifier: "default")),
        (" -33.9 , 151.2 , 1e3 , Sydney Opera ", MapFence(latitude: -33.9, longitude: 151.2, radius: 1000, identifier: "Sydney Opera")),
        ("0,0,1,a,b", MapFence(latitude: 0, longitude: 0, radius: 1, identifier: "a,b")),
        ("90,-180,5,", MapFence(latitude: 90, longitude: -180, radius: 5, identifier: "default")),
    ]

    @Test(arguments: valid)
    func parses(_ text: String, _ expected: MapFence) throws {
        #expect(try MapFence(parsing: text, defaultIdentifier: "default") == expected)
    }

    @Test(arguments: ["", "45,13", "a,13,100", "45,13,-1", "45,13,0", "91,13,100", "45,181,100", "45,13,nan",
                      "45,13,inf", "45,0x10,100", "45,13,2000000", "45 13 100"])
    func refuses(_ text: String) {
        #expect(throws: MapInputError.self) { try MapFence(parsing: text, defaultIdentifier: "x") }
    }

    @Test func aFileHasOneFenceALineWithCommentsAndNumbering() throws {
        let text = "# home and work\n45.1,13.1,100,home\n\n45.2,13.2,200   # no name\n"
        let fences = try MapFence.parseFile(text, name: "fences.txt", firstNumber: 3)
        #expect(fences.map(\.identifier) == ["home", "fence-4"])
        #expect(fences.map(\.radius) == [100, 200])
        let error = try #require(throws: MapInputError.self) { try MapFence.parseFile("45,13,100\n45,13\n", name: "f") }
        #expect(error.description.hasPrefix("f:2: "))
    }
}

@Suite struct MapEventsTests {
    private func fix(_ metresNorth: Double, accuracy: Double = 5, second: Double) -> Fix {
        let point = Geodesic.wgs84.direct(latitude: 45, longitude: 7, azimuth: 0, distance: metresNorth)
        return Fix(latitude: point.latitude, longitude: point.longitude, horizontalAccuracy: accuracy,
                   timestamp: Date(timeIntervalSince1970: second))
    }

    @Test func anEventNeedsTheWholeUncertaintyOnTheOtherSide() {
        let fence = MapFence(latitude: 45, longitude: 7, radius: 100, identifier: "f")
        // 4.5 × 5 m = 22.5 m each side of the edge decides nothing: outside at 200 m, then 85 m
        // (uncertain), 70 m (inside), 115 m (uncertain), 130 m (outside).
        let fixes = [fix(200, second: 0), fix(85, second: 1), fix(70, second: 2), fix(115, second: 3), fix(130, second: 4)]
        let events = MapEvents.events(fixes: fixes, fences: [fence])
        #expect(events.map(\.kind) == [.enter, .exit])
        #expect(events.map(\.timestamp) == [Date(timeIntervalSince1970: 2), Date(timeIntervalSince1970: 4)])
    }

    @Test func theFirstStateIsNotAnEventAndInvalidFixesAreSkipped() {
        let fence = MapFence(latitude: 45, longitude: 7, radius: 100, identifier: "f")
        let fixes = [fix(0, second: 0), fix(500, accuracy: -1, second: 1), fix(0, accuracy: 1_000, second: 2), fix(10, second: 3)]
        #expect(MapEvents.events(fixes: fixes, fences: [fence]).isEmpty)
    }

    /// On a real drive, each event fires after the true crossing it stands for, once the accuracy
    /// circle is across too.
    @Test func onARealDriveEventsFollowTheTrueCrossings() throws {
        let drive = try DriveWithFences()
        let start = try #require(drive.fixes.first).timestamp
        #expect(!drive.events.isEmpty)
        for fence in drive.fences {
            let events = drive.events.filter { $0.fenceIdentifier == fence.identifier }
            let truth = drive.truth.filter { $0.identifier == fence.identifier }
            #expect(!events.isEmpty, "\(fence.identifier)")
            #expect(events.enumerated().allSatisfy { $0.element.kind == ($0.offset.isMultiple(of: 2) ? .enter : .exit) })
            for event in events {
                let time = event.timestamp.timeIntervalSince(start)
                let kind: Crossing.Kind = event.kind == .enter ? .entry : .exit
                #expect(truth.contains { $0.kind == kind && $0.time <= time + 1e-6 && time - $0.time < 60 },
                        "\(fence.identifier) \(event.kind) at \(time) s; truth \(truth)")
            }
        }
    }
}

/// What `map` reads of a source: to its end, one lap, one fix, or a given span.
@Suite struct SourceReadingTests {
    @Test func aRecordedTrackIsReadToItsEnd() throws {
        let fixes = try SourceReading.fixes(of: try SourceSpec(RealTrack.visnjanDrive.spec))
        #expect(fixes.count == 515, "0 s to 514 s, every second")
        let positions = RealTrack.visnjanDrive.positions
        #expect(fixes.last.map { abs($0.latitude - positions[positions.count - 1].latitude) < 1e-9 } == true)
    }

    @Test func aBuiltInRouteIsReadForOneLap() throws {
        let fixes = try SourceReading.fixes(of: .simulation(.walk))
        #expect(fixes.count == Int(BuiltInRoute.walk.track.duration) + 1)
        let first = try #require(fixes.first), last = try #require(fixes.last)
        #expect(Geodesic.wgs84.distance(latitude1: first.latitude, longitude1: first.longitude,
                                        latitude2: last.latitude, longitude2: last.longitude) < 1, "the lap closes")
    }

    @Test func aFixedPointGivesOneFixAndALimitCutsTheReading() throws {
        #expect(try SourceReading.fixes(of: .fixed(latitude: 1, longitude: 2, horizontalAccuracy: 5)).count == 1)
        #expect(try SourceReading.fixes(of: .simulation(.run, speed: 60), limit: 60).count == 61)
        #expect(try SourceReading.fixes(of: try SourceSpec(RealTrack.cerknicaWalk.spec), limit: 0).count == 1)
    }
}

@Suite struct MapProjectionTests {
    @Test func distancesAreTrueToScale() {
        let area = (x: 0.0, y: 0.0, width: 1000.0, height: 1000.0)
        let south = (latitude: 45.0, longitude: 13.0)
        let north = Geodesic.wgs84.direct(latitude: 45, longitude: 13, azimuth: 0, distance: 1000)
        let east = Geodesic.wgs84.direct(latitude: 45.0045, longitude: 13, azimuth: 90, distance: 1000)
        let projection = MapProjection(fitting: [south, (north.latitude, north.longitude), (east.latitude, east.longitude)], area: area)
        let a = projection.point(latitude: south.latitude, longitude: south.longitude)
        let b = projection.point(latitude: north.latitude, longitude: north.longitude)
        #expect(abs((a.y - b.y) / projection.scale - 1000) < 0.5, "north–south: \((a.y - b.y) / projection.scale) m")
        #expect(abs(a.x - b.x) < 0.01, "north is straight up")
        let c = projection.point(latitude: 45.0045, longitude: 13)
        let d = projection.point(latitude: east.latitude, longitude: east.longitude)
        #expect(abs((d.x - c.x) / projection.scale - 1000) < 1, "east–west along the centre: \((d.x - c.x) / projection.scale) m")
        // Everything fits in the area.
        for point in [a, b, d] { #expect(point.x >= -1e-9 && point.x <= 1000 + 1e-9 && point.y >= -1e-9 && point.y <= 1000 + 1e-9) }
    }

    @Test func dataAcrossTheAntimeridianStaysTogether() {
        let projection = MapProjection(fitting: [(0, 179.99), (0, -179.99)], area: (0, 0, 1000, 1000))
        let a = projection.point(latitude: 0, longitude: 179.99), b = projection.point(latitude: 0, longitude: -179.99)
        #expect(b.x > a.x && (b.x - a.x) / projection.scale < 2300, "2.2 km apart, not a world apart")
    }

    @Test func roundLengthsForTheScaleBar() {
        #expect(SVGMap.roundLength(below: 740) == 500)
        #expect(SVGMap.roundLength(below: 2600) == 2000)
        #expect(SVGMap.roundLength(below: 1000) == 1000)
        #expect(SVGMap.roundLength(below: 19) == 10)
    }
}

/// The elements of an SVG document as `XMLParser` reads them: a document that does not parse fails.
final class SVGElements: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""

        var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }
    }

    private(set) var all: [Element] = []
    private var open: [Int] = []

    init(_ data: Data) throws {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        open.append(all.count)
        all.append(Element(name: name, attributes: attributes))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        // Text belongs to the innermost open element (a `<title>` inside a shape is its own element).
        if let last = open.last { all[last].text += string }
    }

    func with(class name: String) -> [Element] { all.filter { $0.classes.contains(name) } }
}

@Suite struct SVGMapDocumentTests {
    @Test func theMapOfADriveParsesWithOneShapePerFenceAndEvent() throws {
        let drive = try DriveWithFences()
        let svg = try SVGElements(Data(SVGMap(drive.drawing).render().utf8))
        let root = try #require(svg.all.first)
        #expect(root.name == "svg" && root.attributes["width"] == "1000" && root.attributes["height"] == "800")
        let fences = svg.with(class: "fence")
        #expect(fences.count == drive.fences.count)
        #expect(fences.allSatisfy { $0.name == "ellipse" }, "small fences at 45° are ellipses")
        #expect(fences.compactMap { $0.attributes["data-fence"] } == drive.fences.map(\.identifier))
        #expect(svg.with(class: "event").count == drive.events.count)
        #expect(svg.with(class: "enter").count == drive.events.filter { $0.kind == .enter }.count)
        #expect(svg.with(class: "fence-label").map(\.text) == drive.fences.map(\.identifier))
        let track = try #require(svg.with(class: "track").first)
        #expect(track.name == "polyline")
        #expect((track.attributes["points"] ?? "").split(separator: " ").count == drive.fixes.count)
        #expect(svg.with(class: "legend").count == 1)
        #expect(svg.with(class: "scale-label").first?.text.hasSuffix(" m") == true)
    }

    @Test func aFenceNearThePoleIsDrawnAsItsTrueShape() throws {
        let fence = MapFence(latitude: 89, longitude: 0, radius: 150_000, identifier: "polar")
        let drawing = MapDrawing(title: "polar", track: [(88.5, 0), (89.5, 90)], fences: [fence], events: [])
        let svg = try SVGElements(Data(SVGMap(drawing).render().utf8))
        #expect(svg.with(class: "fence").map(\.name) == ["polygon"])
        let points = (svg.with(class: "fence").first?.attributes["points"] ?? "").split(separator: " ")
        #expect(points.count == 72)
    }

    @Test func textIsEscaped() throws {
        let fence = MapFence(latitude: 45, longitude: 7, radius: 100, identifier: "<&\"'>\u{1}")
        let drawing = MapDrawing(title: "a & b </svg>", track: [(45, 7)], fences: [fence], events: [])
        let svg = try SVGElements(Data(SVGMap(drawing).render().utf8))
        #expect(svg.with(class: "fence-label").first?.text == "<&\"'> ")
        #expect(svg.all.contains { $0.name == "text" && $0.text == "a & b </svg>" })
    }
}

/// `locationctl map` from the command line.
@Suite struct MapCommandLineTests {
    @Test func writesAnSVGFileWithFencesFromOptionsAndAFile() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let fencesFile = temporary.url.appendingPathComponent("fences.txt")
        try "# two more\n45.2765,13.7199,120,hill\n45.2734,13.7141,80\n".write(to: fencesFile, atomically: true, encoding: .utf8)
        let output = temporary.url.appendingPathComponent("map.svg")
        let result = try run(Executable.locationctl, [
            "map", "--source", RealTrack.visnjanDrive.spec, "--fence", "45.2800,13.7180,150,north",
            "--fence", "45.2745,13.7170,100", "--fences", fencesFile.path, "-o", output.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let svg = try SVGElements(Data(contentsOf: output))
        #expect(svg.with(class: "fence").compactMap { $0.attributes["data-fence"] } == ["north", "fence-2", "hill", "fence-4"])
        #expect(!svg.with(class: "event").isEmpty)
    }

    @Test func writesToStandardOutputByDefault() throws {
        let result = try run(Executable.locationctl, ["map", "--source", "sim:walk", "--fence", "37.7880,-122.4075,80,square"])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try SVGElements(Data(result.stdout.utf8))
        #expect(svg.with(class: "fence").count == 1)
        let title = svg.all.first { $0.name == "text" }?.text ?? ""
        #expect(title.hasPrefix("sim:walk: "), "\(title)")
    }

    @Test(arguments: [
        (["--source", "gpsd"], "live receiver"),
        (["--source", "nmea:tcp://127.0.0.1:1"], "live receiver"),
        (["--source", "sim:walk", "--fence", "45,13"], "LAT,LON,RADIUS"),
        (["--source", "sim:walk", "--fences", "/nonexistent/fences"], "cannot read"),
        (["--source", "moon:1"], "unknown source scheme"),
        (["--source", "sim:walk", "--width", "10"], "--width"),
    ])
    func refusesWhatItCannotDraw(_ arguments: [String], _ message: String) throws {
        let result = try run(Executable.locationctl, ["map"] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
