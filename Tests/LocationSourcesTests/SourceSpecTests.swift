import Foundation
import LocationCore
import LocationProtocol
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
        ("nmea:/dev/ttyUSB0", .nmea(.path("/dev/ttyUSB0"))),
        ("nmea:/dev/ttyUSB0?baud=9600", .nmea(.path("/dev/ttyUSB0"), .init(baud: 9600))),
        ("NMEA: /dev/ttyACM0 ?BAUD=115200&checksum=Optional",
         .nmea(.path("/dev/ttyACM0"), .init(baud: 115200, allowMissingChecksum: true))),
        ("nmea:logs/drive.nmea", .nmea(.path("logs/drive.nmea"))),
        ("nmea:~/drive.nmea?pace=max", .nmea(.path("~/drive.nmea"), .init(pace: .max))),
        ("nmea:/tmp/a b.nmea?pace=recorded&checksum=required",
         .nmea(.path("/tmp/a b.nmea"), .init(pace: .recorded, allowMissingChecksum: false))),
        ("nmea:/tmp/odd:name@1.nmea", .nmea(.path("/tmp/odd:name@1.nmea"))),
        ("nmea:-", .nmea(.standardInput)),
        ("nmea:-?checksum=optional", .nmea(.standardInput, .init(allowMissingChecksum: true))),
        ("nmea:tcp://192.168.1.20:10110", .nmea(.tcp(host: "192.168.1.20", port: 10110))),
        ("nmea:TCP://gps.local:2000/", .nmea(.tcp(host: "gps.local", port: 2000))),
        ("nmea:tcp://[fe80::1%eth0]:10110?checksum=optional",
         .nmea(.tcp(host: "fe80::1%eth0", port: 10110), .init(allowMissingChecksum: true))),
        ("gpsd", .gpsd(host: "127.0.0.1", port: 2947)),
        (" GPSD ", .gpsd()),
        ("gpsd://localhost", .gpsd(host: "localhost", port: 2947)),
        ("gpsd://10.0.0.7:4000", .gpsd(host: "10.0.0.7", port: 4000)),
        ("gpsd://[::1]:2947", .gpsd(host: "::1", port: 2947)),
        ("gpsd://[2001:db8::7]", .gpsd(host: "2001:db8::7", port: 2947)),
        ("sim:walk?speed=60", .simulation(.walk, speed: 60)),
        ("SIM: City-Drive ? SPEED = 2.5 ", .simulation(.cityDrive, speed: 2.5)),
        ("sim:run?", .simulation(.run)),
        ("gpx:/tmp/drive.gpx?speed=3600", .gpx(path: "/tmp/drive.gpx", speed: 3600)),
        ("gpx:/tmp/route.gpx@5?speed=10", .gpx(path: "/tmp/route.gpx", travelSpeed: 5, speed: 10)),
        ("gpx:/tmp/me@home.gpx?speed=1e2", .gpx(path: "/tmp/me@home.gpx", speed: 100)),
        ("gpx:/tmp/slow.gpx?speed=0.25", .gpx(path: "/tmp/slow.gpx", speed: 0.25)),
        ("nmea:logs/drive.nmea?speed=60&checksum=optional",
         .nmea(.path("logs/drive.nmea"), .init(allowMissingChecksum: true, speed: 60))),
        ("nmea:logs/drive.nmea?pace=recorded&speed=0.5", .nmea(.path("logs/drive.nmea"), .init(pace: .recorded, speed: 0.5))),
        // A value starting with a combining mark: the canonical spelling drops the space, and the colon and the
        // mark become one character (found by the configuration-file fuzzer).
        ("iio: \u{65D}dev", .iio(devicePath: "\u{65D}dev", buffered: false)),
        ("gpsd:// \u{301}host:2947", .gpsd(host: "\u{301}host", port: 2947)),
        // A value ending in a prepended mark (U+0600), which joins the delimiter after it into one character
        // once the spelling drops the space between them.
        ("iio:x\u{600} ?mode=buffered", .iio(devicePath: "x\u{600}", buffered: true)),
        ("gpx:/tmp/a\u{600} @5", .gpx(path: "/tmp/a\u{600}", travelSpeed: 5)),
        ("nmea:log\u{600} ?speed=2", .nmea(.path("log\u{600}"), .init(speed: 2))),
        ("nmea:tcp:// \u{301}host:10110", .nmea(.tcp(host: "\u{301}host", port: 10110), .init())),
        ("gpsd://[\u{600}:1]", .gpsd(host: "\u{600}:1", port: 2947)),
    ]

    @Test(arguments: valid)
    func parses(_ text: String, _ expected: SourceSpec) throws {
        let spec = try SourceSpec(text)
        #expect(spec == expected)
        #expect(try SourceSpec(spec.description) == spec, "the canonical spelling parses back")
    }

    static let schemes = ["sim", "gpx", "fixed", "nmea", "gpsd", "compass", "iio", "beacon", "sensorproxy", "bluez"]
    static let nmeaOptions = ["baud", "pace", "speed", "checksum", "standby", "heading"]
    static let speedExpected = "a positive number of simulated seconds per second"
    static let bauds = "one of 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"

    static let invalid: [(String, SourceSpecError)] = [
        ("city-drive", .missingScheme(spec: "city-drive", validSchemes: schemes)),
        ("", .missingScheme(spec: "", validSchemes: schemes)),
        ("serial:/dev/ttyUSB0", .unknownScheme("serial", validSchemes: schemes)),
        ("sim:", .missingValue(scheme: "sim", usage: "sim:NAME[?speed=N]")),
        ("gpx:  ", .missingValue(scheme: "gpx", usage: "gpx:PATH[@SPEED][?speed=N]")),
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
        ("nmea:", .missingValue(scheme: "nmea", usage: SourceSpec.Scheme.nmea.usage)),
        ("nmea:?baud=9600", .missingValue(scheme: "nmea", usage: SourceSpec.Scheme.nmea.usage)),
        ("nmea:/dev/ttyUSB0?rate=9600", .unknownOption(scheme: "nmea", option: "rate", validOptions: nmeaOptions)),
        ("nmea:/dev/ttyUSB0?9600", .unknownOption(scheme: "nmea", option: "9600", validOptions: nmeaOptions)),
        ("nmea:/dev/ttyUSB0?baud=9601", .badOption(option: "baud", value: "9601", expected: bauds)),
        ("nmea:/dev/ttyUSB0?baud=", .badOption(option: "baud", value: "", expected: bauds)),
        ("nmea:/dev/ttyUSB0?baud=-4800", .badOption(option: "baud", value: "-4800", expected: bauds)),
        ("nmea:/dev/ttyUSB0?baud=4800&baud=9600", .duplicateOption("baud")),
        ("nmea:/tmp/x.nmea?pace=fast", .badOption(option: "pace", value: "fast", expected: "recorded or max")),
        ("nmea:/tmp/x.nmea?checksum=no", .badOption(option: "checksum", value: "no", expected: "optional or required")),
        ("nmea:/dev/ttyUSB0?baud=9600&pace=max", .optionNotApplicable(option: "pace", target: "a serial device (baud= is given)")),
        ("nmea:-?baud=9600", .optionNotApplicable(option: "baud", target: "standard input")),
        ("nmea:tcp://h:1?pace=max", .optionNotApplicable(option: "pace", target: "a TCP stream")),
        ("nmea:/dev/ttyUSB0?standby=sirf", .badOption(option: "standby", value: "sirf", expected: "mtk or ublox")),
        ("nmea:tcp://h:1?standby=mtk", .optionNotApplicable(option: "standby", target: "a TCP stream")),
        ("nmea:-?standby=ublox", .optionNotApplicable(option: "standby", target: "standard input")),
        ("nmea:/dev/ttyUSB0?standby=mtk&speed=2", .optionNotApplicable(option: "speed", target: "a serial device (standby= is given)")),
        ("nmea:tcp://gps.local", .malformedAddress(spec: "nmea:tcp://gps.local", usage: "nmea:tcp://HOST:PORT")),
        ("nmea:tcp://:10110", .malformedAddress(spec: "nmea:tcp://:10110", usage: "nmea:tcp://HOST:PORT")),
        ("nmea:tcp://gps.local:0", .badPort("0")),
        ("nmea:tcp://gps.local:65536", .badPort("65536")),
        ("nmea:tcp://gps.local:http", .badPort("http")),
        ("nmea:tcp://fe80::1:10110", .ipv6NeedsBrackets(spec: "nmea:tcp://fe80::1:10110")),
        ("nmea:udp://h:1", .malformedAddress(spec: "nmea:udp://h:1", usage: SourceSpec.Scheme.nmea.usage)),
        ("gpsd:", .missingValue(scheme: "gpsd", usage: "gpsd[://HOST[:PORT]]")),
        ("gpsd:localhost", .malformedAddress(spec: "gpsd:localhost", usage: "gpsd[://HOST[:PORT]]")),
        ("gpsd://", .malformedAddress(spec: "gpsd://", usage: "gpsd[://HOST[:PORT]]")),
        ("gpsd://host:99999", .badPort("99999")),
        ("gpsd://host:", .badPort("")),
        ("gpsd://[::1", .malformedAddress(spec: "gpsd://[::1", usage: "gpsd[://HOST[:PORT]]")),
        ("gpsd://[::1]2947", .malformedAddress(spec: "gpsd://[::1]2947", usage: "gpsd[://HOST[:PORT]]")),
        ("gpsd://::1", .ipv6NeedsBrackets(spec: "gpsd://::1")),
        ("gpsd://host?device=/dev/ttyUSB0", .unknownOption(scheme: "gpsd", option: "device", validOptions: [])),
        ("gpsd://user@host", .malformedAddress(spec: "gpsd://user@host", usage: "gpsd[://HOST[:PORT]]")),
        // speed=N: a positive decimal, once, on replays only.
        ("sim:walk?speed=0", .badSpeed(0)),
        ("sim:walk?speed=-5", .badSpeed(-5)),
        ("sim:walk?speed=fast", .badOption(option: "speed", value: "fast", expected: speedExpected)),
        ("sim:walk?speed=", .badOption(option: "speed", value: "", expected: speedExpected)),
        ("sim:walk?speed", .badOption(option: "speed", value: "", expected: speedExpected)),
        ("sim:walk?speed=nan", .badOption(option: "speed", value: "nan", expected: speedExpected)),
        ("sim:walk?speed=inf", .badOption(option: "speed", value: "inf", expected: speedExpected)),
        ("sim:walk?speed=1e999", .badOption(option: "speed", value: "1e999", expected: speedExpected)),
        ("sim:walk?speed=0x10", .badOption(option: "speed", value: "0x10", expected: speedExpected)),
        ("sim:walk?speed=60s", .badOption(option: "speed", value: "60s", expected: speedExpected)),
        ("sim:walk?speed=2&speed=3", .duplicateOption("speed")),
        ("sim:walk?pace=max", .unknownOption(scheme: "sim", option: "pace", validOptions: ["speed"])),
        ("sim:walk@60", .unknownRoute("walk@60", validRoutes: BuiltInRoute.allCases.map(\.name))),
        ("sim:?speed=2", .missingValue(scheme: "sim", usage: "sim:NAME[?speed=N]")),
        ("sim:moon?speed=2", .unknownRoute("moon", validRoutes: BuiltInRoute.allCases.map(\.name))),
        ("gpx:/tmp/x.gpx?speed=0", .badSpeed(0)),
        ("gpx:/tmp/x.gpx@0?speed=5", .badSpeed(0)),
        ("gpx:/tmp/x.gpx?speed=-1e3", .badSpeed(-1000)),
        ("gpx:?speed=5", .missingValue(scheme: "gpx", usage: "gpx:PATH[@SPEED][?speed=N]")),
        ("gpx:/tmp/x.gpx?baud=9600", .unknownOption(scheme: "gpx", option: "baud", validOptions: ["speed"])),
        ("fixed:1,2?speed=3", .unknownOption(scheme: "fixed", option: "speed", validOptions: [])),
        ("nmea:/tmp/x.nmea?speed=zero", .badOption(option: "speed", value: "zero", expected: speedExpected)),
        ("nmea:/tmp/x.nmea?speed=0", .badSpeed(0)),
        ("nmea:/tmp/x.nmea?pace=max&speed=3",
         .optionNotApplicable(option: "speed", target: "a log replayed as fast as possible (pace=max)")),
        ("nmea:/dev/ttyUSB0?baud=9600&speed=2", .optionNotApplicable(option: "speed", target: "a serial device (baud= is given)")),
        ("nmea:tcp://h:1?speed=2", .optionNotApplicable(option: "speed", target: "a TCP stream")),
        ("nmea:-?speed=2", .optionNotApplicable(option: "speed", target: "standard input")),
        ("gpsd://host?speed=2", .unknownOption(scheme: "gpsd", option: "speed", validOptions: [])),
    ]

    @Test(arguments: invalid)
    func refuses(_ text: String, _ expected: SourceSpecError) {
        #expect(throws: expected) { try SourceSpec(text) }
    }

    @Test func errorMessagesAreOneLineAndHelpful() {
        let messages = Self.invalid.map(\.1.description)
        #expect(messages.allSatisfy { !$0.isEmpty && !$0.contains("\n") })
        #expect(SourceSpecError.unknownScheme("serial", validSchemes: Self.schemes).description
                == "unknown source scheme 'serial'; expected one of sim:, gpx:, fixed:, nmea:, gpsd:, compass:, iio:, beacon:, sensorproxy:, bluez:")
        #expect(SourceSpecError.badOption(option: "baud", value: "9601", expected: Self.bauds).description
                == "baud '9601' is not valid; expected \(Self.bauds)")
        #expect(SourceSpecError.badPort("0").description == "port '0' is not a number from 1 to 65535")
        #expect(SourceSpecError.unknownOption(scheme: "nmea", option: "speed", validOptions: ["baud", "pace", "checksum"])
                .description == "unknown nmea: option 'speed'; expected baud, pace, checksum")
        #expect(SourceSpecError.missingScheme(spec: "city-drive", validSchemes: Self.schemes).description
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

    @Test func theSpecsSpeedIsTheDefaultAndAnExplicitSpeedWins() throws {
        #expect(try SourceSpec("sim:walk?speed=60").speed == 60)
        #expect(try SourceSpec("sim:walk").speed == nil)
        #expect(try SourceSpec("fixed:1,2").speed == nil)
        #expect(try SourceSpec("nmea:x.nmea?speed=4").speed == 4)
        #expect((try SourceSpec("sim:walk?speed=60").makeSource() as? SimulatedRouteSource)?.speed == 60)
        #expect((try SourceSpec("sim:walk?speed=60").makeSource(speed: 2) as? SimulatedRouteSource)?.speed == 2)
        #expect((try SourceSpec("sim:walk").makeSource() as? SimulatedRouteSource)?.speed == 1)
        let path = fixturePath("walk-recorded.gpx")
        let gpx = try SourceSpec("gpx:\(path)@3?speed=120").makeSource()
        #expect((gpx as? GPXReplaySource)?.speed == 120)
        #expect(gpx.descriptor.name == "gpx:\(path)@3.0?speed=120.0", "the name is the canonical spelling")
        #expect((try SourceSpec("gpx:\(path)?speed=120").makeSource(speed: 7) as? GPXReplaySource)?.speed == 7)
    }

    /// `speed=` on a recorded NMEA log: the log's minutes pass in seconds of loop time, fixes keep
    /// their recorded spacing.
    @Test func anNMEALogReplaysAtTheSpecsSpeed() throws {
        func replay(_ spec: String) throws -> (fixes: [Fix], loopSeconds: Double) {
            let loop = VirtualLoop()
            let recorder = Recorder(loop: loop)
            let source = try SourceSpec(spec).makeSource()
            source.start(on: loop, emit: recorder.emit)
            var steps = 0
            while recorder.finishedCount == 0 && steps < 100_000 {
                loop.advance(by: 0.01)
                steps += 1
            }
            source.stop()
            let times = recorder.fixLoopTimes
            return (recorder.fixes, times[times.count - 1].timeIntervalSince(times[0]))
        }
        let log = fixturePath("drive.nmea")
        let normal = try replay("nmea:\(log)")
        let fast = try replay("nmea:\(log)?speed=10")
        #expect(fast.fixes.count == normal.fixes.count && normal.fixes.count > 10)
        #expect(abs(fast.loopSeconds - normal.loopSeconds / 10) < 0.05, "\(fast.loopSeconds) vs \(normal.loopSeconds)")
        let recordedSpan = { (fixes: [Fix]) in fixes[fixes.count - 1].timestamp.timeIntervalSince(fixes[0].timestamp) }
        #expect(abs(recordedSpan(fast.fixes) - recordedSpan(normal.fixes)) < 1e-6, "timestamps stay in recorded time")
    }

    /// Fix timestamps are simulated time: one second apart however fast the replay runs.
    @Test(arguments: [1.0, 60, 3600])
    func timestampsStayInSimulatedTime(speed: Double) throws {
        let loop = VirtualLoop()
        let start = loop.now
        let recorder = Recorder(loop: loop)
        let source = try SourceSpec("sim:city-drive?speed=\(speed)").makeSource()
        source.start(on: loop, emit: recorder.emit)
        loop.advance(by: 120 / speed)
        source.stop()
        let fixes = recorder.fixes
        #expect(fixes.count == 121)
        for (index, fix) in fixes.enumerated() {
            #expect(abs(fix.timestamp.timeIntervalSince(start) - Double(index)) < 1e-6)
            #expect(abs(recorder.fixLoopTimes[index].timeIntervalSince(start) - Double(index) / speed) < 1e-6)
        }
    }

    @Test func makesReceiverSources() throws {
        let gpsd = try #require(try SourceSpec("gpsd").makeSource() as? GPSDSource)
        #expect(gpsd.descriptor == SourceDescriptor(name: "gpsd://127.0.0.1:2947", kind: .gpsd, typicalAccuracy: 5,
                                                           power: PublishedPowerFigures.gnss), "a receiver nobody commands to rest")
        #expect(gpsd.host == "127.0.0.1" && gpsd.port == 2947)
        let remote = try #require(try SourceSpec("gpsd://[::1]:4000").makeSource() as? GPSDSource)
        #expect(remote.host == "::1" && remote.port == 4000 && remote.descriptor.name == "gpsd://[::1]:4000")

        let log = fixturePath("drive.nmea")
        let replay = try #require(try SourceSpec("nmea:" + log).makeSource(speed: 3) as? NMEASource)
        #expect(replay.input == .file(path: log, pace: .recorded))
        #expect(replay.descriptor == SourceDescriptor(name: "nmea:" + log, kind: .nmea, typicalAccuracy: 5, powerCost: 0))
        let fast = try #require(try SourceSpec("nmea:\(log)?pace=max&checksum=optional").makeSource() as? NMEASource)
        #expect(fast.input == .file(path: log, pace: .max) && fast.allowMissingChecksum)

        let device = try #require(try SourceSpec("nmea:/dev/null").makeSource() as? NMEASource)
        #expect(device.input == .device(path: "/dev/null", baud: 4800) && device.descriptor.power == PublishedPowerFigures.gnss)
        #expect(device.standby == nil && device.descriptor.power.resting == .staysOn, "no standby command known: stays on")
        let resting = try #require(try SourceSpec("nmea:/dev/null?standby=MTK").makeSource() as? NMEASource)
        #expect(resting.standby == .mtk && resting.descriptor.name == "nmea:/dev/null?standby=mtk")
        #expect(resting.descriptor.power.resting == .standby(milliwatts: PublishedPowerFigures.gnssStandbyMilliwatts))
        #expect(throws: SourceSpecError.optionNotApplicable(option: "standby", target: "a recorded log (a regular file)")) {
            try SourceSpec("nmea:\(log)?standby=mtk").makeSource()
        }
        let unplugged = try #require(try SourceSpec("nmea:/dev/ttyUSB97?baud=9600").makeSource() as? NMEASource)
        #expect(unplugged.input == .device(path: "/dev/ttyUSB97", baud: 9600), "a receiver not plugged in yet")
        let tcp = try #require(try SourceSpec("nmea:tcp://[::1]:10110").makeSource() as? NMEASource)
        #expect(tcp.input == .tcp(host: "::1", port: 10110) && tcp.descriptor.name == "nmea:tcp://[::1]:10110")
        let stdin = try #require(try SourceSpec("nmea:-").makeSource() as? NMEASource)
        #expect(stdin.input == .standardInput)
    }

    static let unusable: [(String, SourceSpecError)] = [
        ("nmea:/nonexistent/drive.nmea", .unusablePath("/nonexistent/drive.nmea", reason: "No such file or directory")),
        ("nmea:/tmp", .unusablePath("/tmp", reason: "not a file or a device")),
        ("nmea:/dev/null?pace=max", .optionNotApplicable(option: "pace", target: "a device")),
        ("nmea:/dev/ttyUSB97?pace=max", .optionNotApplicable(option: "pace", target: "a serial device")),
        ("nmea:/dev/null?speed=2", .optionNotApplicable(option: "speed", target: "a device")),
        ("nmea:/dev/ttyUSB97?speed=2", .optionNotApplicable(option: "speed", target: "a serial device")),
    ]

    @Test(arguments: unusable)
    func refusesUnusableReceiverPaths(_ text: String, _ expected: SourceSpecError) throws {
        let spec = try SourceSpec(text)
        let error = try #require(throws: SourceSpecError.self) { try spec.makeSource() }
        #expect(error == expected)
        #expect(!error.description.contains("\n"))
    }

    @Test func baudOnARecordedLogIsRefused() throws {
        let spec = try SourceSpec("nmea:\(fixturePath("drive.nmea"))?baud=9600")
        #expect(throws: SourceSpecError.optionNotApplicable(option: "baud", target: "a recorded log (a regular file)")) {
            try spec.makeSource()
        }
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
        #expect(SourceSpec.Scheme.allCases.map(\.rawValue) == Self.schemes)
        #expect(SourceSpec.Scheme.allCases.allSatisfy { !$0.usage.isEmpty && !$0.summary.contains("\n") })
        #expect(SourceSpec.routes.map(\.name) == BuiltInRoute.allCases.map(\.name))
        #expect(SourceSpec.routes.allSatisfy { !$0.summary.isEmpty && !$0.summary.contains("\n") })
    }
}
