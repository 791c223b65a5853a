import Dispatch
import LocationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open descriptor, read with a `DispatchSourceRead` on a private queue, one chunk at a time.
///
/// Events (`bytes`, then at most one `end`) are delivered on that queue in order. Reading goes only
/// as fast as the consumer: each chunk is read into the stream's one buffer, and the read source
/// stays suspended until the consumer says it is done with the chunk (`consumed()`). A peer that
/// sends faster than the consumer processes waits in the kernel (the socket's receive window, a
/// pipe's buffer), not in this process: at most one chunk, `chunkSize` bytes, is ever held here,
/// and reading allocates nothing per chunk (memory freed on another thread than the one that
/// allocated it scatters over malloc's per-thread arenas and is not given back).
///
/// `close()` stops delivery at once: sockets are shut down on the spot (the peer sees the end
/// immediately) and the descriptor itself is closed by the read source's cancel handler, the only
/// safe place to close a descriptor a dispatch source watches.
final class ByteStream: Sendable {
    enum Event: Sendable {
        /// Bytes read; the stream reads nothing more until `consumed()`.
        case bytes(ByteChunk)
        /// The end: nil at end of file (the peer closed), else why reading failed.
        case end(String?)
    }

    /// Bytes per read, and all the stream ever holds.
    static let chunkSize = 64 * 1024

    let descriptor: OpenedDescriptor

    /// The source lives with the flags that govern it: suspending, resuming and cancelling happen
    /// under the same lock as the decisions, so they always balance.
    private struct State {
        var source: any DispatchSourceRead
        var closed = false
        var suspended = false
        /// Bytes of the chunk handed on and not yet consumed (0: none is out).
        var inFlight = 0
        var chunks = 0
    }

    private let state: Locked<State>
    private let buffer = ReadBuffer(capacity: ByteStream.chunkSize)
    private let queue: DispatchQueue
    private let onEvent: @Sendable (Event) -> Void

    /// Starts reading at once; `onEvent` runs on `queue`.
    init(_ descriptor: OpenedDescriptor, queue: DispatchQueue, onEvent: @escaping @Sendable (Event) -> Void) {
        self.descriptor = descriptor
        self.queue = queue
        self.onEvent = onEvent
        let fd = descriptor.fd
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        state = Locked(State(source: source))
        source.setEventHandler { [weak self] in self?.readAvailable() }
        source.setCancelHandler { systemClose(fd) }
        source.resume()
    }

    /// The consumer is done with the last chunk: reading goes on.
    func consumed() {
        let resumed = state.withLock { state -> Bool in
            state.inFlight = 0
            guard state.suspended, !state.closed else { return false }
            state.suspended = false
            state.source.resume()
            return true
        }
        // Data (or the end) may have arrived while suspended, and is signalled only once.
        if resumed { queue.async { [weak self] in self?.readAvailable() } }
    }

    /// Bytes handed on and not yet consumed: 0, or the size of the one chunk that is out.
    var bytesInFlight: Int { state.withLock { $0.inFlight } }

    /// Chunks handed on so far.
    var chunks: Int { state.withLock { $0.chunks } }

    /// Writes `bytes` without blocking; false when not all of them could be written (closed, full, broken).
    func send(_ bytes: [UInt8]) -> Bool {
        guard !state.withLock({ $0.closed }) else { return false }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemSend(descriptor.fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]), isSocket: descriptor.isSocket)
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Stops reading and closes the descriptor (idempotent). No event is delivered after it returns,
    /// except one already running on the queue.
    func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            // Still open here: the cancel handler closes it, after this.
            if descriptor.isSocket { _ = shutdown(descriptor.fd, Int32(SHUT_RDWR)) }
            state.source.cancel()
            // A suspended source runs its cancel handler only once resumed.
            if state.suspended {
                state.suspended = false
                state.source.resume()
            }
        }
    }

    deinit { close() }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Reads one chunk, unless one is still out. After a chunk, `consumed()` reads again, so reading
    /// goes on until `EAGAIN` or until nothing is readable, never stopping after a fixed number of
    /// reads: the end of a stream is signalled only once, possibly together with the last data. A
    /// blocking descriptor is read only while `poll` says it is readable, so a read never blocks.
    private func readAvailable() {
        while true {
            // The read source and `consumed()` may both schedule a read: only one may fill the buffer.
            guard state.withLock({ !$0.closed && $0.inFlight == 0 }) else { return }
            if !descriptor.isNonBlocking {
                var poller = pollfd(fd: descriptor.fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 0) > 0 else { return }
            }
            let count = systemRead(descriptor.fd, buffer.bytes)
            if count > 0 {
                // Suspend before handing the chunk on, so the `consumed` that follows can resume it.
                let handOn = state.withLock { state -> Bool in
                    guard !state.closed else { return false }
                    state.inFlight = count
                    state.chunks += 1
                    state.suspended = true
                    state.source.suspend()
                    return true
                }
                if handOn { onEvent(.bytes(ByteChunk(buffer, count: count))) }
                return
            } else if count == 0 {
                finish(nil)
                return
            } else {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { return }
                finish(errorText(code))
                return
            }
        }
    }

    private func finish(_ reason: String?) {
        guard !isClosed else { return }
        onEvent(.end(reason))
        close()
    }
}

/// The bytes of one read, in the stream's buffer. Valid until the stream is told they were
/// `consumed()`: until then the stream reads nothing into the buffer, so it is never written while
/// a chunk is out (that one-writer-or-one-reader hand-off is what makes sharing it sound).
struct ByteChunk: @unchecked Sendable {
    private let storage: ReadBuffer
    let count: Int

    fileprivate init(_ storage: ReadBuffer, count: Int) {
        self.storage = storage
        self.count = count
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: storage.bytes[..<count]))
    }
}

/// A buffer allocated once per stream; freed when the stream and any chunk still out are gone.
private final class ReadBuffer: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer

    init(capacity: Int) {
        bytes = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { bytes.deallocate() }
}
