import Dispatch
import LocationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open descriptor, read with a `DispatchSourceRead` on a private queue, in large chunks.
///
/// Events (`bytes`, then at most one `end`) are delivered on that queue in order. Bytes handed on but
/// not yet `consumed` are bounded: above `highWater` the read source is suspended until the consumer
/// catches up, so a fast producer (a log piped into standard input) cannot pile up memory.
///
/// `close()` stops delivery at once: sockets are shut down on the spot (the peer sees the end
/// immediately) and the descriptor itself is closed by the read source's cancel handler, the only
/// safe place to close a descriptor a dispatch source watches.
final class ByteStream: Sendable {
    enum Event: Sendable, Equatable {
        case bytes([UInt8])
        /// The end: nil at end of file (the peer closed), else why reading failed.
        case end(String?)
    }

    /// Bytes per read.
    static let chunkSize = 64 * 1024
    /// Bytes handed on but not consumed above which reading pauses.
    static let highWater = 1 << 20

    let descriptor: OpenedDescriptor

    /// The source lives with the flags that govern it: suspending, resuming and cancelling happen
    /// under the same lock as the decisions, so they always balance.
    private struct State {
        var source: any DispatchSourceRead
        var closed = false
        var suspended = false
        var inFlight = 0
        var suspensions = 0
    }

    private let state: Locked<State>
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

    /// The consumer has processed `count` bytes of earlier `.bytes` events.
    func consumed(_ count: Int) {
        let resumed = state.withLock { state -> Bool in
            state.inFlight = max(0, state.inFlight - count)
            guard state.suspended, !state.closed, state.inFlight <= Self.highWater / 2 else { return false }
            state.suspended = false
            state.source.resume()
            return true
        }
        // The end of the stream may have been signalled while suspended, and is signalled only once.
        if resumed { queue.async { [weak self] in self?.readAvailable() } }
    }

    /// Bytes handed on and not yet consumed.
    var bytesInFlight: Int { state.withLock { $0.inFlight } }

    /// How many times reading paused for the consumer.
    var suspensions: Int { state.withLock { $0.suspensions } }

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

    /// Reads until the descriptor has nothing more (or the consumer is too far behind). The end of a
    /// stream is signalled only once, possibly together with the last data, so reading stops only at
    /// `EAGAIN` or when nothing is readable, never after a fixed number of reads. A blocking descriptor
    /// is read only while `poll` says it is readable, so a read never blocks.
    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            guard !isClosed else { return }
            if !descriptor.isNonBlocking {
                var poller = pollfd(fd: descriptor.fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 0) > 0 else { return }
            }
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor.fd, $0) }
            if count > 0 {
                // Suspend before handing the bytes on, so a `consumed` that follows can resume it.
                let paused = state.withLock { state -> Bool in
                    state.inFlight += count
                    guard state.inFlight > Self.highWater, !state.suspended, !state.closed else { return false }
                    state.suspended = true
                    state.suspensions += 1
                    state.source.suspend()
                    return true
                }
                onEvent(.bytes(Array(buffer[..<count])))
                if paused { return }
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
