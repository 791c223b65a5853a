import Foundation
import LocationProtocol
import NIOCore

/// The bytes on `locationd`'s socket.
///
/// Every message is one frame: a 4-byte big-endian length, then that many bytes — a kind byte and a
/// payload. Control messages are JSON (``WireJSON``: explicit field names, easy to read in a
/// capture); the hot path, locations, is a fixed binary layout (no allocation, ~10× cheaper than
/// JSON), because the daemon sends every fix to every watching app.
public enum WireCodec {
    /// The kind byte.
    public enum Kind: UInt8, Sendable {
        case json = 1
        /// A stream's locations: stream id (UInt32), count (UInt16), then `count` fixes of
        /// ``fixLength`` bytes each.
        case locations = 2
    }

    /// Bytes per fix: ten doubles, the timestamp, a flags byte and the floor.
    public static let fixLength = 11 * 8 + 1 + 4

    /// The most fixes one `locations` frame holds within ``WireProtocol/maximumFrameLength``; more
    /// go out as several frames, in order.
    public static let maximumFixesPerFrame = (WireProtocol.maximumFrameLength - 1 - 4 - 2) / fixLength

    // MARK: Encoding

    public static func encode(_ message: ClientMessage, into buffer: inout ByteBuffer) throws {
        try encodeJSON(WireJSON.ClientEnvelope(message), into: &buffer)
    }

    /// Appends the message's frames (locations: one frame per ``maximumFixesPerFrame`` fixes).
    public static func encode(_ message: DaemonMessage, into buffer: inout ByteBuffer) throws {
        guard let envelope = WireJSON.DaemonEnvelope(message) else {
            guard case let .event(.stream(stream, .locations(fixes))) = message else {
                preconditionFailure("only locations have no JSON form")
            }
            var start = 0
            while start < fixes.count {
                let end = min(start + maximumFixesPerFrame, fixes.count)
                writeLocations(fixes[start..<end], stream: stream, into: &buffer)
                start = end
            }
            return
        }
        try encodeJSON(envelope, into: &buffer)
    }

    /// A `locations` frame; `fixes` has at most ``maximumFixesPerFrame`` elements.
    private static func writeLocations(_ fixes: ArraySlice<Fix>, stream: StreamID, into buffer: inout ByteBuffer) {
        let length = 1 + 4 + 2 + fixes.count * fixLength
        buffer.reserveCapacity(minimumWritableBytes: 4 + length)
        buffer.writeInteger(UInt32(length))
        buffer.writeInteger(Kind.locations.rawValue)
        buffer.writeInteger(stream)
        buffer.writeInteger(UInt16(fixes.count))
        for fix in fixes { write(fix, into: &buffer) }
    }

    private static func encodeJSON<Message: Encodable>(_ message: Message, into buffer: inout ByteBuffer) throws {
        let data = try WireJSON.encode(message)
        guard data.count + 1 <= WireProtocol.maximumFrameLength else {
            throw WireError.frameTooLong(data.count + 1)
        }
        buffer.writeInteger(UInt32(data.count + 1))
        buffer.writeInteger(Kind.json.rawValue)
        buffer.writeBytes(data)
    }

    private static func write(_ fix: Fix, into buffer: inout ByteBuffer) {
        // Field by field, not through an array: this runs for every fix sent.
        buffer.writeInteger(fix.latitude.bitPattern)
        buffer.writeInteger(fix.longitude.bitPattern)
        buffer.writeInteger(fix.altitude.bitPattern)
        buffer.writeInteger(fix.ellipsoidalAltitude.bitPattern)
        buffer.writeInteger(fix.horizontalAccuracy.bitPattern)
        buffer.writeInteger(fix.verticalAccuracy.bitPattern)
        buffer.writeInteger(fix.speed.bitPattern)
        buffer.writeInteger(fix.speedAccuracy.bitPattern)
        buffer.writeInteger(fix.course.bitPattern)
        buffer.writeInteger(fix.courseAccuracy.bitPattern)
        buffer.writeInteger(fix.timestamp.timeIntervalSinceReferenceDate.bitPattern)
        var flags: UInt8 = 0
        if fix.isSimulated { flags |= 1 }
        if fix.isProducedByAccessory { flags |= 2 }
        if fix.floor != nil { flags |= 4 }
        buffer.writeInteger(flags)
        buffer.writeInteger(Int32(clamping: fix.floor ?? 0))
    }

    // MARK: One fix, many streams

    /// A `locations` frame encoded once for every stream it goes to.
    ///
    /// A fix fans out to every watching app, and the frames differ only in the stream id — at a
    /// fixed offset. So the daemon encodes the fixes once and hands each stream the same bytes (no
    /// copy when the id matches, which is the common case: one stream per app), or a copy with
    /// the id patched.
    public struct SharedLocationsFrame: Sendable {
        public let fixes: [Fix]
        private let stream: StreamID
        private let frame: ByteBuffer

        /// Where a `locations` frame holds its stream id: after the length and the kind byte.
        static let streamIDOffset = 4 + 1

        /// Nil when `fixes` cannot go into one frame (more than ``maximumFixesPerFrame``): encode
        /// such a message with `encode(_:into:)` instead.
        public init?(fixes: [Fix], stream: StreamID, allocator: ByteBufferAllocator) {
            guard fixes.count <= maximumFixesPerFrame else { return nil }
            var frame = allocator.buffer(capacity: 4 + 1 + 4 + 2 + fixes.count * fixLength)
            writeLocations(fixes[...], stream: stream, into: &frame)
            self.fixes = fixes
            self.stream = stream
            self.frame = frame
        }

        /// The frame for `stream`.
        public func frame(for stream: StreamID) -> ByteBuffer {
            guard stream != self.stream else { return frame }
            var copy = frame
            copy.setInteger(stream, at: copy.readerIndex + Self.streamIDOffset)
            return copy
        }
    }

    // MARK: Decoding

    public static func decodeClientMessage(_ frame: WireFrame) throws -> ClientMessage {
        guard frame.kind == Kind.json.rawValue else { throw WireError.unexpectedKind(frame.kind) }
        let data = Data(frame.payload.readableBytesView)
        do {
            return try JSONDecoder().decode(WireJSON.ClientEnvelope.self, from: data).message()
        } catch {
            // A version-1 client's hello (`{"hello":{"version":1}}`) is read as a hello, so that
            // the daemon answers it with a refusal naming both versions instead of "malformed".
            if let legacy = try? JSONDecoder().decode(LegacyHello.self, from: data) {
                return .hello(version: legacy.hello.version)
            }
            throw WireError.malformed("client message: \(error)")
        }
    }

    /// The hello of protocol version 1, which coded the message enum by Swift's synthesis.
    private struct LegacyHello: Decodable {
        struct Body: Decodable { var version: Int }
        var hello: Body
    }

    /// The refusal of protocol version 1, which coded the message enum by Swift's synthesis.
    private struct LegacyRefusal: Decodable {
        struct Body: Decodable {
            var reason: String
            enum CodingKeys: String, CodingKey { case reason = "_0" }
        }
        var refused: Body
    }

    public static func decodeDaemonMessage(_ frame: WireFrame) throws -> DaemonMessage {
        switch Kind(rawValue: frame.kind) {
        case .json:
            let data = Data(frame.payload.readableBytesView)
            do {
                return try JSONDecoder().decode(WireJSON.DaemonEnvelope.self, from: data).message()
            } catch {
                // A version-1 daemon refuses this client's hello in its own shape
                // (`{"refused":{"_0":"…"}}`): shown as a refusal, so the app's log says why.
                if let legacy = try? JSONDecoder().decode(LegacyRefusal.self, from: data) {
                    return .refused("\(legacy.refused.reason) (locationd speaks wire protocol 1)")
                }
                throw WireError.malformed("daemon message: \(error)")
            }
        case .locations:
            var payload = frame.payload
            guard let stream = payload.readInteger(as: UInt32.self),
                  let count = payload.readInteger(as: UInt16.self),
                  payload.readableBytes == Int(count) * fixLength
            else { throw WireError.malformed("locations frame of \(frame.payload.readableBytes) bytes") }
            // The daemon never sends one (encoding no fixes writes no frame), and an app must never be
            // handed an update without a location.
            guard count > 0 else { throw WireError.malformed("locations frame without a fix") }
            var fixes: [Fix] = []
            fixes.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let fix = readFix(from: &payload) else { throw WireError.malformed("truncated fix") }
                fixes.append(fix)
            }
            return .event(.stream(stream, .locations(fixes)))
        case nil:
            throw WireError.unexpectedKind(frame.kind)
        }
    }

    private static func readFix(from buffer: inout ByteBuffer) -> Fix? {
        var values: [Double] = []
        values.reserveCapacity(11)
        for _ in 0..<11 {
            guard let bits = buffer.readInteger(as: UInt64.self) else { return nil }
            values.append(Double(bitPattern: bits))
        }
        guard let flags = buffer.readInteger(as: UInt8.self), let floor = buffer.readInteger(as: Int32.self) else {
            return nil
        }
        return Fix(
            latitude: values[0], longitude: values[1], altitude: values[2], ellipsoidalAltitude: values[3],
            horizontalAccuracy: values[4], verticalAccuracy: values[5], speed: values[6], speedAccuracy: values[7],
            course: values[8], courseAccuracy: values[9],
            timestamp: Date(timeIntervalSinceReferenceDate: values[10]),
            isSimulated: flags & 1 != 0, isProducedByAccessory: flags & 2 != 0,
            floor: flags & 4 != 0 ? Int(floor) : nil)
    }
}

/// One frame off the socket, before its payload is interpreted.
public struct WireFrame: Sendable, Equatable {
    public var kind: UInt8
    public var payload: ByteBuffer

    public init(kind: UInt8, payload: ByteBuffer) {
        self.kind = kind
        self.payload = payload
    }
}

/// What is wrong with bytes received.
public enum WireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A frame longer than ``WireProtocol/maximumFrameLength`` (or a zero length).
    case frameTooLong(Int)
    case emptyFrame
    case unexpectedKind(UInt8)
    case malformed(String)

    public var description: String {
        switch self {
        case let .frameTooLong(length): "frame of \(length) bytes exceeds the limit of \(WireProtocol.maximumFrameLength)"
        case .emptyFrame: "empty frame"
        case let .unexpectedKind(kind): "unexpected frame kind \(kind)"
        case let .malformed(reason): "malformed message: \(reason)"
        }
    }
}

/// Splits the byte stream into frames (a NIO decoder: put it first in the pipeline).
///
/// A frame announcing more than ``WireProtocol/maximumFrameLength`` bytes is an error at once —
/// before any of it is buffered — so a hostile client cannot make the daemon allocate.
public struct WireFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = WireFrame

    public init() {}

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let frame = try Self.nextFrame(from: &buffer) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(frame))
        return .continue
    }

    public mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }

    /// The next whole frame in `buffer` (consumed), nil when more bytes are needed.
    public static func nextFrame(from buffer: inout ByteBuffer) throws -> WireFrame? {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return nil }
        guard length > 0 else { throw WireError.emptyFrame }
        guard length <= WireProtocol.maximumFrameLength else { throw WireError.frameTooLong(Int(length)) }
        guard buffer.readableBytes >= 4 + Int(length) else { return nil }
        buffer.moveReaderIndex(forwardBy: 4)
        let kind = buffer.readInteger(as: UInt8.self)!
        let payload = buffer.readSlice(length: Int(length) - 1)!
        return WireFrame(kind: kind, payload: payload)
    }
}
