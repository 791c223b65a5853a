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

/// Writes daemon messages to one client from any thread, each encoded once, on the calling thread.
///
/// A fix fans out to every watching client from the engine's thread. Handing each frame to the
/// client's event loop and through its NIO pipeline cost several times the `send(2)` itself, so a
/// frame goes straight to the socket from the thread that has it, with a non-blocking `send(2)` on
/// the writer's own duplicate of the descriptor — its own, so that a connection closed meanwhile can
/// never let the number reach another client. What the kernel does not take at once (the client is
/// slow to read), and every frame after it until NIO has written it all, goes through the channel in
/// order, so frames never interleave: ``Gate`` decides, under one lock, which way each frame goes.
///
/// While the channel is not writable (the client is not reading, its kernel buffer is full and
/// NIO's passed the high watermark) location frames are dropped — counted, logged once — so a slow
/// client costs bounded memory. Control messages are never dropped: they are few, and the
/// connection handler stops reading a client it cannot write to, so it cannot make more of them.
final class ConnectionWriter: AgentEndpoint {
    let channel: any Channel
    private let frames: LocationFrameCache
    private let logger: Logger
    private let dropped = Locked<UInt64>(0)
    /// The channel's writability as its handler last saw it: read for every location frame.
    private let writable = Atomic<Bool>(true)
    private let gate = Mutex(Gate())

    /// Which way the next frame goes.
    private struct Gate {
        /// The writer's duplicate of the socket (-1: none yet, or the connection is finished).
        var descriptor: Int32 = -1
        /// Frames handed to the channel and not yet written by it: while there are any, later
        /// frames follow them through the channel, or the bytes would interleave.
        var queued = 0
        /// Frames (or their rests) that went through the channel, for diagnostics and tests.
        var throughChannel: UInt64 = 0
    }

    init(channel: any Channel, frames: LocationFrameCache, logger: Logger) {
        self.channel = channel
        self.frames = frames
        self.logger = logger
    }

    /// Location frames dropped so far.
    var droppedLocationFrames: UInt64 { dropped.withLock { $0 } }

    /// Frames, or rests of frames, written through the channel rather than straight to the socket.
    var framesThroughChannel: UInt64 { gate.withLock { $0.throughChannel } }

    /// Frames handed to the channel that it has not written yet.
    var framesQueuedInChannel: Int { gate.withLock { $0.queued } }

    /// Starts writing straight to the socket; on the channel's event loop, after the welcome.
    /// Without a socket underneath (an embedded channel) every frame goes through the channel.
    func attachSocket() {
        let duplicate = try? channel.pipeline.syncOperations.withUnsafeTransportIfAvailable(of: NIOBSDSocket.Handle.self) {
            fcntl($0, F_DUPFD_CLOEXEC, 0)
        }
        guard let duplicate, duplicate >= 0 else { return }
        gate.withLock { $0.descriptor = duplicate }
    }

    /// Closes the duplicate: from now on frames go through the (closing) channel.
    func detachSocket() {
        gate.withLock { gate in
            if gate.descriptor >= 0 { close(gate.descriptor) }
            gate.descriptor = -1
        }
    }

    /// Called by the connection handler on the event loop.
    func writabilityChanged(_ isWritable: Bool) {
        writable.store(isWritable, ordering: .relaxed)
    }

    func send(_ event: ServiceEvent) {
        if case let .stream(stream, .locations(fixes)) = event {
            guard writable.load(ordering: .relaxed) else {
                let count = dropped.withLock { count in
                    count += 1
                    return count
                }
                if count == 1 { logger.notice("client is not reading; dropping its location updates until it catches up") }
                return
            }
            if let frame = frames.frame(fixes, stream: stream, allocator: channel.allocator) {
                return write(frame: frame)
            }
        }
        send(.event(event))
    }

    func send(_ message: DaemonMessage) {
        guard let frame = encode(message) else { return }
        write(frame: frame)
    }

    /// The connection's first frame; on the event loop, before ``attachSocket()``. Written at once,
    /// ahead of whatever the engine's thread has queued for this client meanwhile (those frames are
    /// tasks of this loop, so they run after this turn).
    func sendFirst(_ message: DaemonMessage) {
        guard let frame = encode(message) else { return }
        gate.withLock { $0.queued += 1 }
        writeThroughChannel(frame)
    }

    private func encode(_ message: DaemonMessage) -> ByteBuffer? {
        var buffer = channel.allocator.buffer(capacity: 128)
        do {
            try WireCodec.encode(message, into: &buffer)
            return buffer
        } catch {
            logger.error("could not encode a message for the client", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Writes an encoded frame, from any thread.
    func write(frame: ByteBuffer) {
        let throughChannelNow = gate.withLock { gate -> Bool in
            if gate.descriptor >= 0, gate.queued == 0 {
                switch sendNow(frame, gate.descriptor) {
                case .written:
                    return false
                case .partly(let rest):
                    enqueue(rest, &gate)
                    return false
                case .failed:
                    // The peer is gone: the channel notices by itself and closes; until then its
                    // frames go nowhere.
                    close(gate.descriptor)
                    gate.descriptor = -1
                    return false
                }
            }
            // On the event loop with nothing queued the channel writes at once; anywhere else, or
            // behind queued frames, the frame joins the loop's tasks in order.
            if gate.queued == 0, channel.eventLoop.inEventLoop {
                gate.queued += 1
                gate.throughChannel += 1
                return true
            }
            enqueue(frame, &gate)
            return false
        }
        // Outside the lock: the channel may complete the write (and take the lock) before it returns.
        if throughChannelNow { writeThroughChannel(frame) }
    }

    private func enqueue(_ frame: ByteBuffer, _ gate: inout Gate) {
        gate.queued += 1
        gate.throughChannel += 1
        channel.eventLoop.execute { self.writeThroughChannel(frame) }
    }

    private func writeThroughChannel(_ frame: ByteBuffer) {
        channel.writeAndFlush(frame).whenComplete { _ in
            self.gate.withLock { $0.queued -= 1 }
        }
    }

    private enum SendResult {
        case written
        case partly(ByteBuffer)
        case failed
    }

    private func sendNow(_ frame: ByteBuffer, _ descriptor: Int32) -> SendResult {
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
