#if canImport(Glibc)
import Glibc
#endif
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
/// buffer, on the event loop, and written there.
///
/// A fix fans out to every watching client, and a write through the NIO pipeline cost several times
/// the `send(2)` under it, so a frame goes straight to the socket with a non-blocking `send(2)` while
/// nothing is queued in the channel. What the kernel does not take at once (the client is slow to
/// read), and every frame after it until the channel has written it all, goes through the channel,
/// so frames never interleave. Only on the event loop, where NIO closes the socket and tells the
/// handler in the same turn: the descriptor is forgotten before its number can be reused.
///
/// While the channel is not writable (the client is not reading, its kernel buffer is full and
/// NIO's passed the high watermark) location frames are dropped — counted, logged once — so a slow
/// client costs bounded memory. Control messages are never dropped: they are few, and the
/// connection handler stops reading a client it cannot write to, so it cannot make more of them.
final class ConnectionWriter: AgentEndpoint {
    let channel: any Channel
    /// The channel's event loop, kept: asked for every message, from the engine's thread.
    private let eventLoop: any EventLoop
    private let outbox: EventLoopOutbox
    private let logger: Logger
    private let dropped = Locked<UInt64>(0)
    /// The channel's writability as its handler last saw it: read for every location frame, on the
    /// engine's thread, where this object is already in cache and the channel often is not.
    private let writable = Atomic<Bool>(true)
    /// Event-loop state (behind a lock only so that this class is plainly Sendable; never contended).
    private let socket = Mutex(Socket())

    private struct Socket {
        /// The channel's socket (-1: not attached, or the connection is finished).
        var descriptor: Int32 = -1
        /// Frames handed to the channel and not yet written by it: while there are any, later
        /// frames follow them through the channel, or the bytes would interleave.
        var queued = 0
        /// Frames, or their rests, that went through the channel: for diagnostics and tests.
        var throughChannel: UInt64 = 0
    }

    init(channel: any Channel, outbox: EventLoopOutbox, logger: Logger) {
        self.channel = channel
        eventLoop = channel.eventLoop
        self.outbox = outbox
        self.logger = logger
    }

    /// Location frames dropped so far.
    var droppedLocationFrames: UInt64 { dropped.withLock { $0 } }

    /// Frames, or rests of frames, written through the channel rather than straight to the socket.
    var framesThroughChannel: UInt64 { socket.withLock { $0.throughChannel } }

    /// Frames handed to the channel that it has not written yet.
    var framesQueuedInChannel: Int { socket.withLock { $0.queued } }

    /// Starts writing straight to the socket; on the event loop. Without a socket underneath (an
    /// embedded channel) every frame goes through the channel.
    func attachSocket() {
        let descriptor = try? channel.pipeline.syncOperations.withUnsafeTransportIfAvailable(of: NIOBSDSocket.Handle.self) { $0 }
        guard let descriptor, descriptor >= 0 else { return }
        socket.withLock { $0.descriptor = descriptor }
    }

    /// Forgets the socket; on the event loop, when the connection ends (NIO closes the descriptor).
    func detachSocket() {
        socket.withLock { $0.descriptor = -1 }
    }

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
        if eventLoop.inEventLoop {
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
        let rest: ByteBuffer? = socket.withLock { socket in
            guard socket.descriptor >= 0, socket.queued == 0 else { return frame }
            switch Self.sendNow(frame, socket.descriptor) {
            case .written:
                return nil
            case .partly(let rest):
                return rest
            case .failed:
                // The peer is gone: NIO notices by itself and closes the channel; what is written
                // until then fails there.
                socket.descriptor = -1
                return frame
            }
        }
        guard let rest else { return }
        socket.withLock { socket in
            socket.queued += 1
            socket.throughChannel += 1
        }
        // Outside the lock: the channel may finish the write, and call back, before it returns.
        channel.writeAndFlush(rest).whenComplete { _ in
            self.socket.withLock { $0.queued -= 1 }
        }
    }

    private enum SendResult {
        case written
        case partly(ByteBuffer)
        case failed
    }

    private static func sendNow(_ frame: ByteBuffer, _ descriptor: Int32) -> SendResult {
        let sent = frame.withUnsafeReadableBytes { bytes in
            Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
        }
        if sent == frame.readableBytes { return .written }
        if sent >= 0 {
            var rest = frame
            rest.moveReaderIndex(forwardBy: sent)
            return .partly(rest)
        }
        switch errno {
        case EAGAIN, EWOULDBLOCK, EINTR, ENOBUFS: return .partly(frame)
        default: return .failed
        }
    }
}
