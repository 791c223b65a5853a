#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP client connection to `host:port` (a name, an IPv4 or an IPv6 address).
///
/// The name is resolved with `getaddrinfo` (IPv4 and IPv6), and each address is tried in turn with a
/// non-blocking connect bounded by `connectTimeout`. All of it runs on the stream's private queue; a
/// cancelled open shuts the socket being connected down at once.
struct TCPOpener: StreamOpener {
    var host: String
    var port: Int
    /// Seconds to wait for each address's handshake.
    var connectTimeout: Double = 5

    var label: String { "tcp \(Self.hostPort(host, port))" }
    var reopensAfterEnd: Bool { true }

    /// `host:port`, with an IPv6 address in brackets.
    static func hostPort(_ host: String, _ port: Int) -> String {
        host.unicodeScalars.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    func open(_ cancellation: OpenCancellation) throws(StreamError) -> OpenedDescriptor {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_ADDRCONFIG | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let why = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw StreamError("resolve \(host): \(why)")
        }
        defer { freeaddrinfo(first) }
        var lastError = StreamError("connect \(Self.hostPort(host, port)): no usable address")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry?.pointee {
            entry = info.ai_next
            guard !cancellation.isCancelled else { throw StreamError("cancelled") }
            do throws(StreamError) {
                let fd = try connect(info, cancellation)
                return OpenedDescriptor(fd: fd, isSocket: true, isNonBlocking: true)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    private func connect(_ info: addrinfo, _ cancellation: OpenCancellation) throws(StreamError) -> Int32 {
        let target = Self.hostPort(host, port)
        let fd = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard fd >= 0 else { throw .posix("socket for \(target)", errno) }
        guard makeNonBlocking(fd), cancellation.track(socket: fd) else {
            systemClose(fd)
            throw StreamError("connect \(target): cancelled")
        }
        defer { _ = cancellation.track(socket: nil) }
        if systemConnect(fd, info.ai_addr, info.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else {
                let code = errno
                systemClose(fd)
                throw .posix("connect \(target)", code)
            }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&poller, 1, Int32(connectTimeout * 1000))
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if ready <= 0 {
                code = ready == 0 ? ETIMEDOUT : errno
            } else if getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) != 0 {
                code = errno
            }
            if cancellation.isCancelled { code = ECANCELED }
            guard code == 0 else {
                systemClose(fd)
                throw .posix("connect \(target)", code)
            }
        }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }
}
