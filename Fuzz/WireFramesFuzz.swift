// libFuzzer target for locationd's socket bytes below the JSON: the frame decoder (`WireFrameDecoder`,
// the first code a hostile client's bytes reach) and the binary `locations` frames apps read. Built by
// scripts/fuzz-wire-frames.sh with Sources/LocationWire's codec files, against LocationProtocol (built
// instrumented) and SwiftPM's own build of NIOCore (not instrumented: NIO is not what is fuzzed here).
//
// The input's first byte picks a chunk size (1–64); the rest is a byte stream, split into frames once
// whole and once arriving chunk by chunk. Besides crashes and AddressSanitizer reports it traps when
// the two splits give other frames or another error, when a frame breaks the length limit, when a
// decoding error is not a `WireError`, or when a `locations` frame that decoded does not encode back
// to one frame that decodes to the same fixes (compared as encoded bytes: a NaN is never equal to
// itself). The JSON payloads' own round trips are scripts/fuzz-wire.sh's.

import LocationProtocol
import NIOCore

@_cdecl("LLVMFuzzerTestOneInput")
public func wireFramesFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let chunkSize = 1 + Int(data[0]) % 64
    let stream = UnsafeRawBufferPointer(start: data + 1, count: size - 1)

    var whole = ByteBuffer(bytes: stream)
    let (frames, error) = split(&whole)
    var arriving = ByteBuffer()
    var chunkedFrames: [WireFrame] = []
    var chunkedError: WireError?
    var offset = 0
    while offset < stream.count, chunkedError == nil {
        let end = min(stream.count, offset + chunkSize)
        arriving.writeBytes(UnsafeRawBufferPointer(rebasing: stream[offset..<end]))
        offset = end
        let (more, failure) = split(&arriving)
        chunkedFrames += more
        chunkedError = failure
    }
    guard chunkedFrames == frames, chunkedError == error else {
        fatalError("whole: \(frames.count) frames, \(String(describing: error)); in chunks of \(chunkSize): "
            + "\(chunkedFrames.count) frames, \(String(describing: chunkedError))")
    }
    for frame in frames {
        guard frame.payload.readableBytes + 1 <= WireProtocol.maximumFrameLength else {
            fatalError("a frame of \(frame.payload.readableBytes + 1) bytes passed the limit")
        }
        check(frame)
    }
    return 0
}

/// Every whole frame in `buffer`, and the error that stopped the split, if any.
private func split(_ buffer: inout ByteBuffer) -> ([WireFrame], WireError?) {
    var frames: [WireFrame] = []
    do {
        while let frame = try WireFrameDecoder.nextFrame(from: &buffer) { frames.append(frame) }
        return (frames, nil)
    } catch let error as WireError {
        return (frames, error)
    } catch {
        fatalError("the frame decoder threw \(error), not a WireError")
    }
}

/// One frame read as both sides read it.
private func check(_ frame: WireFrame) {
    do {
        _ = try WireCodec.decodeClientMessage(frame)
    } catch is WireError {
    } catch {
        fatalError("a client message failed with \(error), not a WireError")
    }
    let message: DaemonMessage
    do {
        message = try WireCodec.decodeDaemonMessage(frame)
    } catch is WireError {
        return
    } catch {
        fatalError("a daemon message failed with \(error), not a WireError")
    }
    guard case let .event(.stream(stream, .locations(fixes))) = message else { return }
    let encoded = encode(message)
    var again = encoded
    guard let frameAgain = try? WireFrameDecoder.nextFrame(from: &again), again.readableBytes == 0,
          case let .event(.stream(streamAgain, .locations(fixesAgain)))? = try? WireCodec.decodeDaemonMessage(frameAgain)
    else { fatalError("\(fixes.count) fixes of stream \(stream) did not encode to one locations frame") }
    guard streamAgain == stream, encode(.event(.stream(streamAgain, .locations(fixesAgain)))) == encoded else {
        fatalError("\(fixes.count) fixes of stream \(stream) read back differently")
    }
}

private func encode(_ message: DaemonMessage) -> ByteBuffer {
    var buffer = ByteBuffer()
    do {
        try WireCodec.encode(message, into: &buffer)
    } catch {
        fatalError("a message that decoded cannot be encoded: \(error)")
    }
    return buffer
}
