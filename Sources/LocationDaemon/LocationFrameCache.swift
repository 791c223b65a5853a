import LocationProtocol
import LocationWire
import NIOCore
import Synchronization

/// The last `locations` frame encoded, shared by every connection: a fix fans out to all watching
/// clients one after another from the engine's thread, so it is encoded once and its bytes reused
/// (with the client's stream id written in when it differs).
final class LocationFrameCache: Sendable {
    private let last = Mutex<WireCodec.SharedLocationsFrame?>(nil)

    /// Nil when `fixes` cannot go into one shared frame (then the message is encoded on its own).
    func frame(_ fixes: [Fix], stream: StreamID, allocator: ByteBufferAllocator) -> ByteBuffer? {
        last.withLock { last in
            if last?.fixes != fixes {
                last = WireCodec.SharedLocationsFrame(fixes: fixes, stream: stream, allocator: allocator)
            }
            return last?.frame(for: stream)
        }
    }
}
