import LocationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens the descriptor a `ByteStream` reads, once per (re)connection.
///
/// `open` runs on the stream's private dispatch queue, never on the engine loop: it may block briefly
/// (name resolution, a TCP handshake). It must give up promptly once `cancellation` is cancelled.
protocol StreamOpener: Sendable {
    /// Where the bytes come from, for log lines and `.noFix` reasons: `/dev/ttyUSB0`,
    /// `tcp 192.168.1.10:10110`, `standard input`.
    var label: String { get }
    /// False when the end of the stream is final (standard input): no reconnect then.
    var reopensAfterEnd: Bool { get }
    func open(_ cancellation: OpenCancellation) throws(StreamError) -> OpenedDescriptor
}

/// A descriptor an opener produced; the `ByteStream` made from it owns (and closes) it.
struct OpenedDescriptor: Sendable {
    var fd: Int32
    /// Sockets are shut down on close (the peer sees the end at once) and written with `MSG_NOSIGNAL`.
    var isSocket: Bool
    /// True when the descriptor is in non-blocking mode (then reads drain it until `EAGAIN`); a
    /// borrowed descriptor such as standard input stays blocking and is read once per readiness event.
    var isNonBlocking: Bool
}

/// Lets `stop()` abandon an open in progress: a connect waiting for its handshake is shut down at once.
final class OpenCancellation: Sendable {
    private struct State {
        var cancelled = false
        var pendingSocket: Int32?
    }

    private let state = Locked(State())

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let fd = state.pendingSocket { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Registers the socket being connected (nil when done with it); false when already cancelled.
    func track(socket fd: Int32?) -> Bool {
        state.withLock { state in
            state.pendingSocket = fd
            return !state.cancelled
        }
    }
}

/// Sets `O_NONBLOCK` and `FD_CLOEXEC` on a descriptor we own.
func makeNonBlocking(_ fd: Int32) -> Bool {
    let flags = fcntl(fd, F_GETFL)
    guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { return false }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    return true
}
