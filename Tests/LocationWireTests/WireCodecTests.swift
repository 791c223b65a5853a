import Foundation
import LocationCore
import LocationEngine
import LocationPolicy
import LocationService
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
        let message = DaemonMessage.event(.locations(7, [Self.fix, noFloor]))
        var buffer = ByteBuffer()
        try WireCodec.encode(message, into: &buffer)
        #expect(buffer.readableBytes == 4 + 1 + 4 + 2 + 2 * WireCodec.fixLength)
        #expect(buffer.getInteger(at: 4, as: UInt8.self) == WireCodec.Kind.locations.rawValue)
        let decoded = try Self.roundTrip(message)
        #expect(decoded == message)
        guard case let .event(.locations(_, fixes)) = decoded else { Issue.record("not locations"); return }
        #expect(fixes[1].latitude.sign == .minus)
        #expect(fixes[0].timestamp == Self.fix.timestamp)
    }

    @Test(arguments: [
        DaemonMessage.welcome(
            identity: AppIdentity(id: "com.example.app", displayName: "Example", executablePath: "/opt/example/app"),
            authorization: EffectiveAuthorization(status: .authorizedWhenInUse, accuracy: .reducedAccuracy, servicesEnabled: true)),
        .refused("unsupported protocol version 9"),
        .event(.authorizationRequestInProgress(true)),
        .event(.failed(3, .denied)),
        .settingsResult(nil),
        .settingsResult(SettingsChangeError("no app x")),
        .apps(AuthorizationDatabase(servicesEnabled: false)),
        .agentPromptWithdrawn(id: 4),
    ])
    func controlMessagesRoundTrip(_ message: DaemonMessage) throws {
        #expect(try Self.roundTrip(message) == message)
    }

    @Test(arguments: [
        ClientMessage.hello(version: WireProtocol.version),
        .request(.startUpdates(1, UpdateRequest(mode: .live, desiredAccuracy: 10))),
        .settings(.grant(app: "com.example.app", always: true, approximate: false)),
        .listApps, .registerAgent, .agentAnswer(id: 9, .allowWhileUsing(precise: false)), .agentAnswer(id: 10, nil),
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
            .event(.locations(1, [Self.fix])), .event(.paused(1)), .event(.locations(2, [Self.fix, Self.fix])),
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

        let unknown = WireFrame(kind: 99, payload: ByteBuffer())
        #expect(throws: WireError.unexpectedKind(99)) { try WireCodec.decodeDaemonMessage(unknown) }
        // A client may not send binary frames.
        let binary = WireFrame(kind: WireCodec.Kind.locations.rawValue, payload: ByteBuffer())
        #expect(throws: WireError.unexpectedKind(2)) { try WireCodec.decodeClientMessage(binary) }
    }
}
