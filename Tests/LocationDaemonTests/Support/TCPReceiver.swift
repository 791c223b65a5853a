import Foundation
import LocationCore
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for a GPS receiver on TCP: listens on 127.0.0.1, accepts the daemon's connection, and
/// notices when the daemon closes it.
final class TCPReceiver: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw WireClientError("listen: \(reason)")
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(listener) }

    /// The next connection, waiting up to `timeout` seconds (without holding a test-pool thread).
    func accept(timeout: Double) async -> Int32? {
        var connection: Int32 = -1
        _ = await eventually(timeout: .seconds(timeout)) {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 0) > 0 else { return false }
            connection = Glibc.accept(listener, nil, nil)
            return connection >= 0
        }
        return connection >= 0 ? connection : nil
    }

    func send(_ text: String, on connection: Int32) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// When the peer closed `connection` (end of stream read), polled; nil on timeout.
    /// Closes `connection` either way.
    func waitForEndOfStream(on connection: Int32, timeout: Double) async -> Date? {
        defer { close(connection) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var ended: Date?
        _ = await eventually(timeout: .seconds(timeout)) {
            var entry = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 0) > 0 else { return false }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) else { return false }
            ended = Date()
            return true
        }
        return ended
    }
}
