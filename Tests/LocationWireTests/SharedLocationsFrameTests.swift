import Foundation
import LocationProtocol
import NIOCore
import Testing
@testable import LocationWire

@Suite struct SharedLocationsFrameTests {
    static let fixes = [WireCodecTests.fix]

    static func encodedAlone(_ stream: UInt32) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        try WireCodec.encode(DaemonMessage.event(.stream(stream, .locations(fixes))), into: &buffer)
        return buffer
    }

    @Test func everyStreamGetsTheBytesItWouldHaveHadAlone() throws {
        let shared = try #require(WireCodec.SharedLocationsFrame(fixes: Self.fixes, stream: 3, allocator: ByteBufferAllocator()))
        for stream: UInt32 in [3, 0, 9, .max] {
            var frame = shared.frame(for: stream)
            #expect(frame == (try Self.encodedAlone(stream)))
            let decoded = try WireCodec.decodeDaemonMessage(try #require(try WireFrameDecoder.nextFrame(from: &frame)))
            #expect(decoded == .event(.stream(stream, .locations(Self.fixes))))
        }
    }

    @Test func patchingOneStreamsCopyLeavesTheSharedBytesAlone() throws {
        let shared = try #require(WireCodec.SharedLocationsFrame(fixes: Self.fixes, stream: 1, allocator: ByteBufferAllocator()))
        _ = shared.frame(for: 2)
        #expect(shared.frame(for: 1) == (try Self.encodedAlone(1)))
    }

    @Test func tooManyFixesForOneBinaryFrameAreRefused() {
        let many = [Fix](repeating: WireCodecTests.fix, count: Int(UInt16.max) + 1)
        #expect(WireCodec.SharedLocationsFrame(fixes: many, stream: 1, allocator: ByteBufferAllocator()) == nil)
    }
}
