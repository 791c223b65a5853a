import Foundation
import LocationProtocol
import NIOCore
import Testing
@testable import LocationWire

@Suite struct WireCodecTests {
    static let fix = Fix(
        latitude: 37.331_7, longitude: -122.030_2, altitude: 12.5, ellipsoidalAltitude: -19.75,
        horizontalAccuracy: 4.2, verticalAccuracy: 3, speed: 13.4, speedAccuracy: 0.5,
        course: 271.25, courseAccuracy: 2, timestamp: Date(timeIntervalSinceReferenceDate: 785_000_000.123_456),
        isSimulated: true, isProducedByAccessory: false, floor: -2)

    static func roundTrip(_ message: DaemonMessage) throws -> DaemonMessage {
        var buffer = ByteBuffer()
        try WireCodec.encode(message, into: &buffer)
        let frame = try #require(try WireFrameDecoder.nextFrame(from: &buffer))
        #expect(buffer.readableBytes == 0)
        return try WireCodec.decodeDaemonMessage(frame)
    }

    @Test func locationsTravelAsBinaryAndComeBackBitForBit() throws {
        var noFloor = Self.fix
        noFloor.floor = nil
        noFloor.latitude = -0.0
        let message = DaemonMessage.event(.stream(7, .locations([Self.fix, noFloor])))
        var buffer = ByteBuffer()
        try WireCodec.encode(message, into: &buffer)
        #expect(buffer.readableBytes == 4 + 1 + 4 + 2 + 2 * WireCodec.fixLength)
        #expect(buffer.getInteger(at: 4, as: UInt8.self) == WireCodec.Kind.locations.rawValue)
        let decoded = try Self.roundTrip(message)
        #expect(decoded == message)
        guard case let .event(.stream(_, .locations(fixes))) = decoded else { Issue.record("not locations"); return }
        #expect(fixes[1].latitude.sign == .minus)
        #expect(fixes[0].timestamp == Self.fix.timestamp)
    }

    @Test(arguments: [
        DaemonMessage.welcome(
            identity: AppIdentity(id: "com.example.app", displayName: "Example", executablePath: "/opt/example/app"),
            authorization: EffectiveAuthorization(status: .authorizedWhenInUse, accuracy: .reducedAccuracy, servicesEnabled: true),
            capabilities: [.locations, .beacons]),
        .welcome(
            identity: AppIdentity(id: "/usr/bin/tool", displayName: "tool", executablePath: "/usr/bin/tool"),
            authorization: EffectiveAuthorization(status: .denied, accuracy: .fullAccuracy, servicesEnabled: false),
            capabilities: []),
        .refused("unsupported protocol version 9"),
        .event(.authorizationRequestInProgress(true)),
        .event(.stream(3, .failed(.denied))),
        .event(.stream(3, .failed(.locationUnknown))),
        .event(.stream(3, .paused)), .event(.stream(3, .stationary(true))), .event(.stream(3, .completed)),
        .event(.stream(3, .sourceFinished)),
        .event(.authorizationChanged(.notDetermined)),
        .settingsResult(nil),
        .settingsResult(SettingsChangeError("no app x")),
        .apps(AuthorizationDatabase(servicesEnabled: false)),
        .apps(Self.database),
        .appsUnavailable(SettingsChangeError("store unreadable")),
        .agentPrompt(id: 5, PromptRequest(
            app: AppIdentity(id: "com.example.app", displayName: "Example", executablePath: "/opt/example/app"),
            kind: .upgradeToAlways, level: .always, usageDescription: "Trails", preciseByDefault: false)),
        .agentPrompt(id: 6, PromptRequest(
            app: AppIdentity(id: "com.example.app", displayName: "Example", executablePath: "/opt/example/app"),
            kind: .temporaryFullAccuracy(purposeKey: "Trails"), level: .whenInUse,
            usageDescription: "Finds the trailhead you are standing at.", preciseByDefault: false)),
        .agentPromptWithdrawn(id: 4),
        .event(.temporaryFullAccuracy(7, .prompted)), .event(.temporaryFullAccuracy(.max, .declined)),
        .event(.stream(8, .heading(HeadingSample(
            magneticHeading: 359.5, trueHeading: 2.25, headingAccuracy: 5, x: -5.68, y: 18.537, z: -28.31,
            timestamp: Date(timeIntervalSinceReferenceDate: 800_000_000.125))))),
        .event(.stream(8, .heading(HeadingSample(
            magneticHeading: 0, headingAccuracy: -1, timestamp: Date(timeIntervalSinceReferenceDate: 0))))),
    ])
    func controlMessagesRoundTrip(_ message: DaemonMessage) throws {
        #expect(try Self.roundTrip(message) == message)
    }

    @Test(arguments: [
        ClientMessage.hello(version: WireProtocol.version),
        .request(.startUpdates(1, UpdateRequest(mode: .live, desiredAccuracy: 10))),
        .request(.startUpdates(5, UpdateRequest(mode: .significantChange))),
        .request(.endTemporaryFullAccuracy),
        .settings(.grant(app: "com.example.app", always: true, approximate: false)),
        .request(.requestAuthorization(.always)), .request(.requestAuthorization(.whenInUse)),
        .request(.changeUpdates(2, UpdateRequest(mode: .single, distanceFilter: 5, activity: .fitness, pausesAutomatically: false))),
        .request(.resumeUpdates(3)), .request(.stopUpdates(4)),
        .settings(.revoke(app: "a")), .settings(.reset(app: "b")), .settings(.resetAll), .settings(.services(enabled: false)),
        .listApps, .registerAgent, .agentAnswer(id: 9, .allowWhileUsing(precise: false)), .agentAnswer(id: 10, nil),
        .agentAnswer(id: 11, .allowOnce(precise: true)), .agentAnswer(id: 12, .dontAllow),
        .agentAnswer(id: 13, .changeToAlways), .agentAnswer(id: 14, .keepWhileUsing),
        .agentAnswer(id: 15, .allowTemporaryFullAccuracy), .agentAnswer(id: 16, .denyTemporaryFullAccuracy),
        .request(.requestTemporaryFullAccuracy(1, purposeKey: "Trails")),
        .request(.requestTemporaryFullAccuracy(.max, purposeKey: "")),
        .request(.startHeading(6, HeadingRequest(filter: -1))), .request(.startHeading(7, HeadingRequest(filter: 2.5))),
        .request(.stopHeading(6)),
    ])
    func clientMessagesRoundTrip(_ message: ClientMessage) throws {
        var buffer = ByteBuffer()
        try WireCodec.encode(message, into: &buffer)
        let frame = try #require(try WireFrameDecoder.nextFrame(from: &buffer))
        #expect(try WireCodec.decodeClientMessage(frame) == message)
    }

    @Test func framesArriveWholeWhateverTheChunking() throws {
        var all = ByteBuffer()
        let messages: [DaemonMessage] = [
            .event(.stream(1, .locations([Self.fix]))), .event(.stream(1, .paused)), .event(.stream(2, .locations([Self.fix, Self.fix]))),
        ]
        for message in messages { try WireCodec.encode(message, into: &all) }
        let bytes = Array(all.readableBytesView)
        for chunk in [1, 3, 7, 64, bytes.count] {
            var pending = ByteBuffer()
            var decoded: [DaemonMessage] = []
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                pending.writeBytes(bytes[start..<min(start + chunk, bytes.count)])
                while let frame = try WireFrameDecoder.nextFrame(from: &pending) {
                    decoded.append(try WireCodec.decodeDaemonMessage(frame))
                }
            }
            #expect(decoded == messages, "chunk size \(chunk)")
        }
    }

    @Test func aHostileLengthIsRejectedBeforeAnythingIsBuffered() {
        var buffer = ByteBuffer()
        buffer.writeInteger(UInt32.max)
        buffer.writeInteger(UInt8(1))
        #expect(throws: WireError.frameTooLong(Int(UInt32.max))) { try WireFrameDecoder.nextFrame(from: &buffer) }
        var empty = ByteBuffer()
        empty.writeInteger(UInt32(0))
        #expect(throws: WireError.emptyFrame) { try WireFrameDecoder.nextFrame(from: &empty) }
    }

    @Test func garbageGetsAClearErrorNotACrash() throws {
        var json = ByteBuffer()
        json.writeInteger(UInt32(6))
        json.writeInteger(UInt8(1))
        json.writeString("{oops")
        let frame = try #require(try WireFrameDecoder.nextFrame(from: &json))
        #expect(throws: WireError.self) { try WireCodec.decodeClientMessage(frame) }

        var short = ByteBuffer()
        short.writeInteger(UInt32(1 + 4 + 2 + 10))
        short.writeInteger(WireCodec.Kind.locations.rawValue)
        short.writeInteger(UInt32(1))
        short.writeInteger(UInt16(1))
        short.writeBytes([UInt8](repeating: 0, count: 10))
        let truncated = try #require(try WireFrameDecoder.nextFrame(from: &short))
        #expect(throws: WireError.self) { try WireCodec.decodeDaemonMessage(truncated) }

        // No fix at all (found by scripts/fuzz-wire-frames.sh): refused, never an update without a location.
        var none = ByteBuffer()
        none.writeInteger(UInt32(1 + 4 + 2))
        none.writeInteger(WireCodec.Kind.locations.rawValue)
        none.writeInteger(UInt32(1))
        none.writeInteger(UInt16(0))
        let empty = try #require(try WireFrameDecoder.nextFrame(from: &none))
        #expect(throws: WireError.malformed("locations frame without a fix")) { try WireCodec.decodeDaemonMessage(empty) }

        let unknown = WireFrame(kind: 99, payload: ByteBuffer())
        #expect(throws: WireError.unexpectedKind(99)) { try WireCodec.decodeDaemonMessage(unknown) }
        // A client may not send binary frames.
        let binary = WireFrame(kind: WireCodec.Kind.locations.rawValue, payload: ByteBuffer())
        #expect(throws: WireError.unexpectedKind(2)) { try WireCodec.decodeClientMessage(binary) }
    }

    static let database = AuthorizationDatabase(servicesEnabled: true, apps: [
        "com.example.app": AppRecord(
            status: .authorizedWhenInUse, accuracy: .reducedAccuracy, alwaysRequestUsed: true,
            allowOnce: ProcessStamp(pid: 42, startTime: 7),
            temporaryFullAccuracy: TemporaryFullAccuracy(purposeKey: "Trails", process: ProcessStamp(pid: 43, startTime: 8)),
            displayName: "Example", executablePath: "/opt/example/app", updated: Date(timeIntervalSinceReferenceDate: 50)),
        "/usr/bin/other": AppRecord(status: .denied, displayName: "other", executablePath: "/usr/bin/other",
                                    updated: Date(timeIntervalSinceReferenceDate: 60)),
    ])

    /// The JSON is the wire's own: a `type` and named fields, whatever the shared values look like.
    @Test func controlMessagesAreObjectsWithATypeAndNamedFields() throws {
        var buffer = ByteBuffer()
        try WireCodec.encode(ClientMessage.request(.startUpdates(7, UpdateRequest(mode: .live, desiredAccuracy: 10))), into: &buffer)
        let frame = try #require(try WireFrameDecoder.nextFrame(from: &buffer))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(frame.payload.readableBytesView)) as? [String: Any])
        #expect(object["type"] as? String == "startUpdates")
        #expect(object["stream"] as? Int == 7)
        let update = try #require(object["update"] as? [String: Any])
        #expect(update["mode"] as? String == "live")
        #expect(update["desiredAccuracy"] as? Double == 10)
        #expect(update["activity"] as? Int == 1)
        #expect(Set(object.keys) == ["type", "stream", "update"], "absent fields are left out")
    }

    static func clientFrame(_ json: String) -> WireFrame {
        var payload = ByteBuffer()
        payload.writeString(json)
        return WireFrame(kind: WireCodec.Kind.json.rawValue, payload: payload)
    }

    /// A version-1 client's hello is read as a hello of version 1, so the daemon can refuse it by name.
    @Test func aVersionOneHelloIsRecognised() throws {
        #expect(try WireCodec.decodeClientMessage(Self.clientFrame(#"{"hello":{"version":1}}"#)) == .hello(version: 1))
        #expect(try WireCodec.decodeClientMessage(Self.clientFrame(#"{"type":"hello","version":3}"#)) == .hello(version: 3))
    }

    /// The welcome names what the daemon's sources measure. A welcome without the field is from a daemon
    /// that did not say (its apps assume every source, as before the field); a name this client does not
    /// know is left out, not refused.
    @Test func welcomeCapabilitiesAreNamesAndAnAbsentListMeansEverySource() throws {
        var buffer = ByteBuffer()
        let identity = AppIdentity(id: "a", displayName: "a", executablePath: "/a")
        let authorization = EffectiveAuthorization(status: .notDetermined, accuracy: .fullAccuracy, servicesEnabled: true)
        try WireCodec.encode(DaemonMessage.welcome(identity: identity, authorization: authorization,
                                                   capabilities: [.locations, .headings]), into: &buffer)
        let frame = try #require(try WireFrameDecoder.nextFrame(from: &buffer))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(frame.payload.readableBytesView)) as? [String: Any])
        #expect(object["capabilities"] as? [String] == ["locations", "headings"])

        let welcome = #"{"type":"welcome","identity":{"id":"a","displayName":"a","executablePath":"/a"},"#
            + #""authorization":{"status":0,"accuracy":0,"servicesEnabled":true}"#
        #expect(try WireCodec.decodeDaemonMessage(Self.clientFrame(welcome + "}"))
                == .welcome(identity: identity, authorization: authorization, capabilities: .all))
        #expect(try WireCodec.decodeDaemonMessage(Self.clientFrame(welcome + #","capabilities":["beacons","sonar"]}"#))
                == .welcome(identity: identity, authorization: authorization, capabilities: [.beacons]))
        #expect(try WireCodec.decodeDaemonMessage(Self.clientFrame(welcome + #","capabilities":[]}"#))
                == .welcome(identity: identity, authorization: authorization, capabilities: []))
    }

    /// A version-1 daemon's refusal of this client reads as a refusal that says so.
    @Test func aVersionOneRefusalIsShownAsARefusal() throws {
        let message = try WireCodec.decodeDaemonMessage(Self.clientFrame(#"{"refused":{"_0":"unsupported protocol version 2 (this daemon speaks 1)"}}"#))
        #expect(message == .refused("unsupported protocol version 2 (this daemon speaks 1) (locationd speaks wire protocol 1)"))
    }

    @Test(arguments: [
        #"{"type":"teleport"}"#,
        #"{"type":"startUpdates","stream":1}"#,
        #"{"type":"startUpdates","stream":1,"update":{"mode":"warp","desiredAccuracy":1,"distanceFilter":1,"activity":1,"pausesAutomatically":true}}"#,
        #"{"type":"startUpdates","stream":1,"update":{"mode":"live","desiredAccuracy":1,"distanceFilter":1,"activity":99,"pausesAutomatically":true}}"#,
        #"{"type":"requestAuthorization","level":"forever"}"#,
        #"{"type":"settings","change":{"kind":"grant","app":"x"}}"#,
        #"{"type":"agentAnswer","id":1,"answer":{"kind":"allowOnce"}}"#,
        #"{"type":"hello"}"#,
        #"{"type":"startHeading","stream":1}"#,
        #"{"type":"stopHeading"}"#,
        #"[]"#,
    ])
    func incompleteOrUnknownMessagesAreRefused(json: String) {
        #expect(throws: WireError.self) { try WireCodec.decodeClientMessage(Self.clientFrame(json)) }
    }

    /// A sensor's NaN or infinity never makes encoding fail: it goes out as unknown.
    @Test func nonFiniteHeadingValuesAreSentAsUnknown() throws {
        let sample = HeadingSample(magneticHeading: .nan, trueHeading: .infinity, headingAccuracy: 3,
                                   x: .nan, y: 1, z: -.infinity, timestamp: Date(timeIntervalSinceReferenceDate: 5))
        let decoded = try Self.roundTrip(.event(.stream(2, .heading(sample))))
        #expect(decoded == .event(.stream(2, .heading(HeadingSample(
            magneticHeading: 0, headingAccuracy: -1, y: 1, timestamp: Date(timeIntervalSinceReferenceDate: 5))))))
    }

    @Test func unknownEnumeratedValuesFromTheDaemonAreRefused() {
        for json in [
            #"{"type":"authorizationChanged","authorization":{"status":9,"accuracy":0,"servicesEnabled":true}}"#,
            #"{"type":"failed","stream":1,"failure":"meteor"}"#,
            #"{"type":"welcome","authorization":{"status":0,"accuracy":0,"servicesEnabled":true}}"#,
            #"{"type":"heading","stream":1,"heading":{"magneticHeading":360,"headingAccuracy":5,"timestamp":0}}"#,
            #"{"type":"heading","stream":1,"heading":{"magneticHeading":10,"trueHeading":-3,"headingAccuracy":5,"timestamp":0}}"#,
            #"{"type":"heading","stream":1}"#,
        ] {
            #expect(throws: WireError.self, "\(json)") { try WireCodec.decodeDaemonMessage(Self.clientFrame(json)) }
        }
    }

    /// More fixes than one frame holds go out as several frames, in order, each within the limit.
    @Test func manyFixesAreSplitIntoFramesWithinTheLimit() throws {
        let count = WireCodec.maximumFixesPerFrame * 2 + 5
        let fixes = (0..<count).map { index in
            var fix = Self.fix
            fix.latitude = Double(index) / 1000
            return fix
        }
        var buffer = ByteBuffer()
        try WireCodec.encode(DaemonMessage.event(.stream(4, .locations(fixes))), into: &buffer)
        var decoded: [Fix] = []
        var frames = 0
        while let frame = try WireFrameDecoder.nextFrame(from: &buffer) {
            frames += 1
            #expect(frame.payload.readableBytes + 1 <= WireProtocol.maximumFrameLength)
            guard case let .event(.stream(4, .locations(part))) = try WireCodec.decodeDaemonMessage(frame) else {
                Issue.record("not a locations frame of stream 4")
                return
            }
            decoded += part
        }
        #expect(frames == 3)
        #expect(decoded == fixes)
    }
}
