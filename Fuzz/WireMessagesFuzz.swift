// libFuzzer target for the JSON form of locationd's control messages: built by scripts/fuzz-wire.sh
// together with Sources/LocationWire/WireJSON.swift and WireMessages.swift (outside Sources/, so
// SwiftPM ignores it), against LocationProtocol built as its own module. WireCodec.swift (NIO's
// framing) is left out: the frame's payload is exactly what reaches the JSON decoder, so the input
// here is that payload.
//
// Each input is read both as a client message (what the daemon reads from any local process) and as
// a daemon message (what apps read from the daemon). Errors are fine; besides crashes and
// AddressSanitizer reports, it traps when a message that decoded cannot be encoded again, when its
// encoding does not decode to an equal message, or when encoding that message again gives other bytes
// (the encoding of a message is one fixed string). Those traps are fatalError, not precondition, so
// that -O builds print what broke.

import Foundation
import LocationProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func wireMessagesFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let payload = Data(bytes: data, count: size)
    if let message = decodeClientMessage(payload) {
        checkRoundTrip(message, encode: { WireJSON.ClientEnvelope($0) }, decode: { try $0.message() })
    }
    if let message = try? JSONDecoder().decode(WireJSON.DaemonEnvelope.self, from: payload).message() {
        checkRoundTrip(message, encode: { WireJSON.DaemonEnvelope($0) }, decode: { try $0.message() })
    }
    return 0
}

/// `WireCodec.decodeClientMessage`'s reading of a JSON payload: the envelope, else a version-1 hello.
private func decodeClientMessage(_ payload: Data) -> ClientMessage? {
    if let message = try? JSONDecoder().decode(WireJSON.ClientEnvelope.self, from: payload).message() {
        return message
    }
    return (try? JSONDecoder().decode(LegacyHello.self, from: payload)).map { .hello(version: $0.hello.version) }
}

/// The hello of protocol version 1, as WireCodec reads it.
private struct LegacyHello: Decodable {
    struct Body: Decodable { var version: Int }
    var hello: Body
}

/// Encodes `message` as WireCodec does, decodes the bytes, and traps unless that gives `message`
/// back and encoding it again gives the same bytes. `encode` is nil only for messages without a
/// JSON form (locations), which no JSON input can produce.
private func checkRoundTrip<Message: Equatable, Envelope: Codable>(
    _ message: Message, encode: (Message) -> Envelope?, decode: (Envelope) throws -> Message
) {
    guard let envelope = encode(message) else { fatalError("a decoded message without a JSON form: \(message)") }
    let bytes: Data
    do {
        bytes = try WireJSON.encode(envelope)
    } catch {
        fatalError("a decoded message does not encode: \(message): \(error)")
    }
    let again: Message
    do {
        again = try decode(JSONDecoder().decode(Envelope.self, from: bytes))
    } catch {
        fatalError("an encoded message does not decode: \(String(decoding: bytes, as: UTF8.self)): \(error)")
    }
    if again != message { fatalError("round trip changed \(message) into \(again)") }
    guard let reencoded = encode(again), let bytesAgain = try? WireJSON.encode(reencoded) else {
        fatalError("a round-tripped message does not encode: \(again)")
    }
    if bytesAgain != bytes {
        fatalError("one message, two encodings: \(String(decoding: bytes, as: UTF8.self)) and \(String(decoding: bytesAgain, as: UTF8.self))")
    }
}
