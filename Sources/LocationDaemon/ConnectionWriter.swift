import LocationAccess
import LocationCore
import LocationProtocol
import LocationWire
import Logging
import NIOCore
import Synchronization

/// Writes daemon messages to one client's channel from any thread.
///
/// On the channel's event loop a message is written at once; from elsewhere (the engine's loop) it
/// goes through the loop's ``EventLoopOutbox``. Either way each message is encoded once, into one
/// buffer, on the event loop. While the channel is not writable (the client is not reading and its
/// buffer passed the high watermark) location frames are dropped — counted, logged once — so a slow
/// client costs bounded memory. Control messages are never dropped: they are few, and the
/// connection handler stops reading a client it cannot write to, so it cannot make more of them.
final class ConnectionWriter: AgentEndpoint {
    let channel: any Channel
    private let outbox: EventLoopOutbox
    private let logger: Logger
    private let dropped = Locked<UInt64>(0)
    /// The channel's writability as its handler last saw it: read for every location frame, on the
    /// engine's thread, where this object is already in cache and the channel often is not.
    private let writable = Atomic<Bool>(true)

    init(channel: any Channel, outbox: EventLoopOutbox, logger: Logger) {
        self.channel = channel
        self.outbox = outbox
        self.logger = logger
    }

    /// Location frames dropped so far.
    var droppedLocationFrames: UInt64 { dropped.withLock { $0 } }

    /// Called by the connection handler on the event loop.
    func writabilityChanged(_ isWritable: Bool) {
        writable.store(isWritable, ordering: .relaxed)
    }

    func send(_ event: ServiceEvent) {
        if case .stream(_, .locations) = event, !writable.load(ordering: .relaxed) {
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
        if channel.eventLoop.inEventLoop {
            write(message)
        } else {
            outbox.post(message, to: self)
        }
    }

    /// Encodes and writes; on the channel's event loop only.
    func write(_ message: DaemonMessage) {
        var buffer = channel.allocator.buffer(capacity: 128)
        do {
            try WireCodec.encode(message, into: &buffer)
        } catch {
            logger.error("could not encode a message for the client", metadata: ["error": "\(error)"])
            return
        }
        write(frame: buffer)
    }

    /// Writes an encoded frame; on the channel's event loop only.
    func write(frame: ByteBuffer) {
        channel.writeAndFlush(frame, promise: nil)
    }
}
