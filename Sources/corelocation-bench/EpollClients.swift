#if canImport(Glibc)
import CLinuxEpoll
import Foundation
import Glibc
import LocationProtocol
import LocationWire
import NIOCore

// `locationd-clients --io epoll`: the same N clients as the NIO mode, on one plain epoll thread.
// The clients stand in for separate app processes, so their own CPU per fix is measurement
// overhead on the daemon's two cores; this mode skips NIO's channel pipeline and promises and
// costs one level-triggered `recv` into one reusable buffer per readiness event. The handshake
// (hello → welcome → startUpdates) is done blocking on the main thread, one client at a time,
// while the epoll thread already reads the clients handshaken before it.

/// One client's connection; after registration only the epoll thread touches it.
final class EpollClient {
    let fd: Int32
    /// Bytes of a frame split across reads (rare: a fix frame is ~100 bytes).
    var pending = ByteBufferAllocator().buffer(capacity: 4096)
    var deliveries: [Delivery] = []
    var anomalies = ClientAnomalies()

    init(fd: Int32, expectedFixes: Int) {
        self.fd = fd
        deliveries.reserveCapacity(expectedFixes)
    }

    /// Decodes every whole frame in `pending`, recording fixes with `received`.
    /// Returns the welcome if one came (only during the handshake).
    @discardableResult
    func drainFrames(received: Int64) throws -> DaemonMessage? {
        var handshake: DaemonMessage?
        while let frame = try WireFrameDecoder.nextFrame(from: &pending) {
            let message = try WireCodec.decodeDaemonMessage(frame)
            switch message {
            case let .event(.stream(_, .locations(fixes))):
                for fix in fixes { deliveries.append(Delivery(fix, receivedNanoseconds: received)) }
            case _ where handshake == nil && message.isHandshakeAnswer:
                handshake = message
            default:
                anomalies.note(message)
            }
        }
        if pending.readableBytes == 0 { pending.clear() }
        return handshake
    }
}

private extension DaemonMessage {
    var isHandshakeAnswer: Bool {
        switch self {
        case .welcome, .refused: return true
        default: return false
        }
    }
}

/// The epoll instance and the thread that reads every registered client.
final class EpollClientLoop: @unchecked Sendable {
    private let epollFD: Int32
    private let wakeFD: Int32
    private let finished = DispatchSemaphore(value: 0)

    init() throws {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC))
        guard epollFD >= 0, wakeFD >= 0 else { throw BenchClientError("epoll/eventfd: errno \(errno)") }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.ptr = nil  // nil marks the stop signal
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) == 0 else {
            throw BenchClientError("epoll_ctl(eventfd): errno \(errno)")
        }
        Thread { self.run() }.start()
    }

    /// Hands `client` to the epoll thread; the caller must not touch it until `stop()` returns.
    func register(_ client: EpollClient) throws {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.ptr = Unmanaged.passUnretained(client).toOpaque()
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, client.fd, &event) == 0 else {
            throw BenchClientError("epoll_ctl: errno \(errno)")
        }
    }

    /// Stops the thread and waits for it; afterwards the clients are the caller's again.
    func stop() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
        finished.wait()
    }

    private func run() {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { scratch.deallocate(); finished.signal() }
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while true {
            let count = epoll_wait(epollFD, &events, Int32(events.count), -1)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            for index in 0..<Int(count) {
                guard let pointer = events[index].data.ptr else { return }
                let client = Unmanaged<EpollClient>.fromOpaque(pointer).takeUnretainedValue()
                // One receive time per client read (as the NIO mode), not per wakeup: a wakeup can
                // carry hundreds of clients, and the later ones are read later.
                read(client, into: scratch, received: realtimeNanoseconds())
            }
        }
    }

    private func read(_ client: EpollClient, into scratch: UnsafeMutableRawBufferPointer, received: Int64) {
        let count = recv(client.fd, scratch.baseAddress, scratch.count, 0)
        if count < 0, errno == EAGAIN || errno == EINTR { return }
        guard count > 0 else {
            if count < 0 { client.anomalies.failures.append("connection error: errno \(errno)") }
            client.anomalies.disconnected = true
            epoll_ctl(epollFD, EPOLL_CTL_DEL, client.fd, nil)
            return
        }
        client.pending.writeBytes(UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
        do {
            try client.drainFrames(received: received)
        } catch {
            client.anomalies.failures.append("undecodable message: \(error)")
            client.anomalies.disconnected = true
            epoll_ctl(epollFD, EPOLL_CTL_DEL, client.fd, nil)
        }
    }
}

/// Connects one client and handshakes blocking (hello → welcome → startUpdates), then makes its
/// socket non-blocking. Throws with the daemon's reason if it refuses or does not authorize.
func connectEpollClient(to socketPath: String, expectedFixes: Int) throws -> EpollClient {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw BenchClientError("socket: errno \(errno)") }
    let client = EpollClient(fd: fd, expectedFixes: expectedFixes)
    do {
        try connectUnix(fd, socketPath)
        // A bound wait for the welcome, as the NIO mode's 15 s.
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        try sendMessage(.hello(version: WireProtocol.version), on: fd)
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &scratch, scratch.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw BenchClientError(count == 0
                    ? "the daemon closed the connection before welcoming the client"
                    : "no welcome within 15 s (errno \(errno))")
            }
            client.pending.writeBytes(scratch[0..<count])
            switch try client.drainFrames(received: realtimeNanoseconds()) {
            case let .welcome(identity, authorization, _)?:
                guard authorization.status.isAuthorized, authorization.servicesEnabled else {
                    throw BenchClientError(
                        "not authorized as \(identity.id) (\(authorization.status), services "
                        + "\(authorization.servicesEnabled ? "on" : "off")): grant \(identity.executablePath) first")
                }
                try sendMessage(.request(.startUpdates(FanOutClientHandler.streamID, FanOutClientHandler.request)), on: fd)
                guard fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 else {
                    throw BenchClientError("fcntl: errno \(errno)")
                }
                return client
            case let .refused(reason)?:
                throw BenchClientError("refused by the daemon: \(reason)")
            default:
                continue
            }
        }
    } catch {
        close(fd)
        throw error
    }
}

private func connectUnix(_ fd: Int32, _ path: String) throws {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
        throw BenchClientError("socket path too long: \(path)")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    guard result == 0 else { throw BenchClientError("connect \(path): \(String(cString: strerror(errno)))") }
}

private func sendMessage(_ message: ClientMessage, on fd: Int32) throws {
    var buffer = ByteBufferAllocator().buffer(capacity: 256)
    try WireCodec.encode(message, into: &buffer)
    let sent = buffer.withUnsafeReadableBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == buffer.readableBytes else { throw BenchClientError("send: errno \(errno)") }
}
#endif
