import Foundation
import LocationCore
import Testing
@testable import LocationSources

@Suite struct SourceSpecTests {
    static let valid: [(String, SourceSpec)] = [
        ("sim:city-drive", .simulation(.cityDrive)),
        ("sim:walk", .simulation(.walk)),
        ("SIM:Freeway-Drive", .simulation(.freewayDrive)),
        ("sim: run ", .simulation(.run)),
        ("gpx:/tmp/walk.gpx", .gpx(path: "/tmp/walk.gpx")),
        ("gpx:relative/odd:name.gpx", .gpx(path: "relative/odd:name.gpx")),
        ("gpx: ~/Tracks/walk.gpx ", .gpx(path: "~/Tracks/walk.gpx")),
        ("gpx:/tmp/route.gpx@5", .gpx(path: "/tmp/route.gpx", travelSpeed: 5)),
        ("gpx:/tmp/route.gpx @ 1.4", .gpx(path: "/tmp/route.gpx", travelSpeed: 1.4)),
        ("gpx:/tmp/me@home.gpx", .gpx(path: "/tmp/me@home.gpx")),
        ("fixed:37.3349,-122.009", .fixed(latitude: 37.3349, longitude: -122.009, horizontalAccuracy: 5)),
        ("fixed: 37.5 , -122.25 , 12.5", .fixed(latitude: 37.5, longitude: -122.25, horizontalAccuracy: 12.5)),
        ("fixed:-90,180,0", .fixed(latitude: -90, longitude: 180, horizontalAccuracy: 0)),
        ("fixed:+1e1,.5", .fixed(latitude: 10, longitude: 0.5, horizontalAccuracy: 5)),
    ]

    @Test(arguments: valid)
    func parses(_ text: String, _ expected: SourceSpec) throws {
        let spec = try SourceSpec(text)
        #expect(spec == expected)
        #expect(try SourceSpec(spec.description) == spec, "the canonical spelling parses back")
    }

    static let invalid: [(String, SourceSpecError)] = [
        ("city-drive", .missingScheme(spec: "city-drive", validSchemes: ["sim", "gpx", "fixed"])),
        ("", .missingScheme(spec: "", validSchemes: ["sim", "gpx", "fixed"])),
        ("nmea:/dev/ttyUSB0", .unknownScheme("nmea", validSchemes: ["sim", "gpx", "fixed"])),
        ("sim:", .missingValue(scheme: "sim", usage: "sim:NAME")),
        ("gpx:  ", .missingValue(scheme: "gpx", usage: "gpx:PATH[@SPEED]")),
        ("gpx:/tmp/route.gpx@0", .badSpeed(0)),
        ("gpx:/tmp/route.gpx@-3", .badSpeed(-3)),
        ("sim:moon-walk", .unknownRoute("moon-walk", validRoutes: BuiltInRoute.allCases.map(\.name))),
        ("fixed:37", .wrongFieldCount(spec: "fixed:37", usage: "fixed:LAT,LON[,ACCURACY]")),
        ("fixed:1,2,3,4", .wrongFieldCount(spec: "fixed:1,2,3,4", usage: "fixed:LAT,LON[,ACCURACY]")),
        ("fixed:abc,1", .malformedNumber(field: "latitude", value: "abc")),
        ("fixed:1,0x10", .malformedNumber(field: "longitude", value: "0x10")),
        ("fixed:nan,1", .malformedNumber(field: "latitude", value: "nan")),
        ("fixed:1,inf", .malformedNumber(field: "longitude", value: "inf")),
        ("fixed:1,1e999", .malformedNumber(field: "longitude", value: "1e999")),
        ("fixed:1,2,", .malformedNumber(field: "accuracy", value: "")),
        ("fixed:1,2,5m", .malformedNumber(field: "accuracy", value: "5m")),
        ("fixed:91,0", .coordinateOutOfRange(field: "latitude", value: 91)),
        ("fixed:0,-180.5", .coordinateOutOfRange(field: "longitude", value: -180.5)),
        ("fixed:1,2,-3", .negativeAccuracy(-3)),
    ]

    @Test(arguments: invalid)
    func refuses(_ text: String, _ expected: SourceSpecError) {
        #expect(throws: expected) { try SourceSpec(text) }
    }

    @Test func errorMessagesAreOneLineAndHelpful() {
        let messages = Self.invalid.map(\.1.description)
        #expect(messages.allSatisfy { !$0.isEmpty && !$0.contains("\n") })
        #expect(SourceSpecError.unknownScheme("nmea", validSchemes: ["sim", "gpx", "fixed"]).description
                == "unknown source scheme 'nmea'; expected one of sim:, gpx:, fixed:")
        #expect(SourceSpecError.missingScheme(spec: "city-drive", validSchemes: ["sim", "gpx", "fixed"]).description
                .hasSuffix("(did you mean sim:city-drive?)"))
        let unknownRoute = SourceSpecError.unknownRoute("moon-walk", validRoutes: BuiltInRoute.allCases.map(\.name)).description
        for route in BuiltInRoute.allCases { #expect(unknownRoute.contains(route.name)) }
        #expect(SourceSpecError.badSpeed(0).description == "speed 0.0 must be a positive finite number")
    }

    @Test func makesTheRightSources() throws {
        let sim = try SourceSpec("sim:city-drive").makeSource(speed: 4)
        #expect((sim as? SimulatedRouteSource)?.speed == 4)
        #expect(sim.descriptor.name == "sim:city-drive" && sim.descriptor.kind == .simulation)

        let fixed = try SourceSpec("fixed:37.5,-122.25").makeSource()
        #expect(fixed.descriptor == SourceDescriptor(name: "fixed:37.5,-122.25,5.0", kind: .fixed, typicalAccuracy: 5, powerCost: 0))

        let path = fixturePath("route-untimed.gpx")
        let gpx = try SourceSpec("gpx:" + path).makeSource(speed: 2)
        #expect((gpx as? GPXReplaySource)?.speed == 2)
        #expect(gpx.descriptor.kind == .gpx && gpx.descriptor.name == "gpx:" + path)
    }

    @Test func madeSourcesRun() throws {
        for spec in ["sim:walk", "fixed:1,2", "gpx:" + fixturePath("waypoints-timed.gpx")] {
            let loop = VirtualLoop()
            let recorder = Recorder(loop: loop)
            let source = try SourceSpec(spec).makeSource()
            source.start(on: loop, emit: recorder.emit)
            loop.advance(by: 5)
            source.stop()
            #expect(recorder.fixes.count == 6, "\(spec)")
            #expect(loop.pendingCount == 0)
        }
    }

    @Test func gpxProblemsSurfaceWhenTheSourceIsMade() throws {
        let spec = try SourceSpec("gpx:/nonexistent/track.gpx")
        let error = try #require(throws: GPXError.self) { try spec.makeSource() }
        #expect(error.reason == .unreadable("no such file"))
    }

    @Test(arguments: [0, -1, Double.nan, .infinity, -.infinity])
    func refusesBadSpeeds(_ speed: Double) throws {
        let error = try #require(throws: SourceSpecError.self) { try SourceSpec("sim:walk").makeSource(speed: speed) }
        if case .badSpeed = error {} else { Issue.record("expected badSpeed, got \(error)") }
    }

    @Test func helpListsSchemesAndRoutes() {
        #expect(SourceSpec.Scheme.allCases.map(\.rawValue) == ["sim", "gpx", "fixed"])
        #expect(SourceSpec.Scheme.allCases.allSatisfy { !$0.usage.isEmpty && !$0.summary.contains("\n") })
        #expect(SourceSpec.routes.map(\.name) == BuiltInRoute.allCases.map(\.name))
        #expect(SourceSpec.routes.allSatisfy { !$0.summary.isEmpty && !$0.summary.contains("\n") })
    }
}
