import LocationCore
import LocationService
import LocationWire
import Logging
import NIOCore

/// Writes daemon messages to one client's channel from any thread (the engine's loop, mostly).
///
/// Each message is encoded once into one buffer; `writeAndFlush` hops to the channel's event loop.
/// While the channel is not writable (the client is not reading and its buffer passed the high
/// watermark) location frames are dropped — counted, logged once — so a slow client costs bounded
/// memory. Control messages are never dropped: they are few, and the connection handler stops reading
/// a client it cannot write to, so a client cannot make it produce more of them.
final class ConnectionWriter: AgentEndpoint {
    let channel: any Channel
    private let logger: Logger
    private let dropped = Locked<UInt64>(0)

    init(channel: any Channel, logger: Logger) {
        self.channel = channel
        self.logger = logger
    }

    /// Location frames dropped so far.
    var droppedLocationFrames: UInt64 { dropped.withLock { $0 } }

    func send(_ event: ServiceEvent) {
        if case .locations = event, !channel.isWritable {
            let count = dropped.withLock { count in
                count += 1
                return count
            }
            if count == 1 { logger.notice("client is not reading; dropping its location updates until it catches up") }
            return
        }
        send(.event(event))
    }

    func send(_ message: DaemonMessage) {
        var buffer = channel.allocator.buffer(capacity: 128)
        do {
            try WireCodec.encode(message, into: &buffer)
        } catch {
            logger.error("could not encode a message for the client", metadata: ["error": "\(error)"])
            return
        }
        channel.writeAndFlush(buffer, promise: nil)
    }
}
