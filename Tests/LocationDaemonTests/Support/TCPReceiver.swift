import Foundation
import LocationCore

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
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, 0) > 0 {
                let connection = Glibc.accept(listener, nil, nil)
                if connection >= 0 { return connection }
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    func send(_ text: String, on connection: Int32) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// When the peer closed `connection` (end of stream read), polling every 5 ms; nil on timeout.
    /// Closes `connection` either way.
    func waitForEndOfStream(on connection: Int32, timeout: Double) async -> Date? {
        defer { close(connection) }
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var entry = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, 0) > 0 {
                let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return Date() }
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }
}
