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
    }

    private let state: Locked<State>
    private let onEvent: @Sendable (Event) -> Void

    /// Starts reading at once; `onEvent` runs on `queue`.
    init(_ descriptor: OpenedDescriptor, queue: DispatchQueue, onEvent: @escaping @Sendable (Event) -> Void) {
        self.descriptor = descriptor
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
        state.withLock { state in
            state.inFlight = max(0, state.inFlight - count)
            guard state.suspended, !state.closed, state.inFlight <= Self.highWater / 2 else { return }
            state.suspended = false
            state.source.resume()
        }
    }

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

    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        // A non-blocking descriptor is drained (up to a few chunks per wake-up, to stay fair); a
        // blocking one is read once, which readiness guarantees will not block.
        var chunks = descriptor.isNonBlocking ? 4 : 1
        while chunks > 0 {
            guard !isClosed else { return }
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor.fd, $0) }
            if count > 0 {
                chunks -= 1
                // Suspend before handing the bytes on, so a `consumed` that follows can resume it.
                let paused = state.withLock { state -> Bool in
                    state.inFlight += count
                    guard state.inFlight > Self.highWater, !state.suspended, !state.closed else { return false }
                    state.suspended = true
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
