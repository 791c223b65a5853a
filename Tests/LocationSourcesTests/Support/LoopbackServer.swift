import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny TCP server on 127.0.0.1 for tests: a fake gpsd or NMEA-over-TCP device. Blocking calls
/// with timeouts, used from the test's own thread.
final class LoopbackServer: @unchecked Sendable {
    let port: Int
    private var listener: Int32

    /// Listens on `port` (0: any free port).
    init(port: Int = 0) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TestFailure("socket: \(errno)") }
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else {
            let code = errno
            Glibc.close(listener)
            throw TestFailure("bind/listen on port \(port): \(String(cString: strerror(code)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) }
        }
        self.listener = listener
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits for a client; nil on timeout.
    func accept(timeout: Double = 5) -> Connection? {
        guard listener >= 0, waitReadable(listener, timeout: timeout) else { return nil }
        let fd = Glibc.accept(listener, nil, nil)
        return fd >= 0 ? Connection(fd: fd) : nil
    }

    /// Stops listening: new connections are refused.
    func close() {
        if listener >= 0 { Glibc.close(listener) }
        listener = -1
    }

    deinit { close() }

    final class Connection: @unchecked Sendable {
        private var fd: Int32
        private var buffer: [UInt8] = []

        init(fd: Int32) { self.fd = fd }

        @discardableResult
        func send(_ text: String) -> Bool { send(Array(text.utf8)) }

        @discardableResult
        func send(_ bytes: [UInt8]) -> Bool {
            guard fd >= 0 else { return false }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }

        /// Sends `next()`'s bytes again and again, as fast as the client takes them, until `stopped()`
        /// or the client goes away; returns how many bytes went out. Waits for room 10 ms at a time,
        /// so a stop is seen at once even when the client has stopped reading.
        func flood(stopped: () -> Bool, next: () -> [UInt8]) -> Int {
            var sent = 0
            while !stopped(), fd >= 0 {
                let bytes = next()
                var offset = 0
                while offset < bytes.count {
                    if stopped() { return sent }
                    var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    guard poll(&poller, 1, 10) >= 0 else { return sent }
                    guard poller.revents != 0 else { continue }
                    let written = bytes[offset...].withUnsafeBytes {
                        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                    }
                    if written > 0 {
                        offset += written
                        sent += written
                    } else if written < 0, errno == EAGAIN || errno == EINTR {
                        continue
                    } else {
                        return sent
                    }
                }
            }
            return sent
        }

        /// The next line the client sent (without its newline); nil on timeout or end.
        func readLine(timeout: Double = 5) -> String? {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return line
                }
                let left = deadline.timeIntervalSinceNow
                guard left > 0, fd >= 0, waitReadable(fd, timeout: left) else { return nil }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return nil }
                buffer += chunk[..<count]
            }
        }

        /// Seconds until the client closed its end (reads return 0), reading and keeping what it sends
        /// meanwhile; nil when it did not close within `timeout`.
        func secondsUntilClosed(timeout: Double) -> Double? {
            let start = Date()
            while Date().timeIntervalSince(start) < timeout {
                guard fd >= 0 else { return nil }
                guard waitReadable(fd, timeout: timeout - Date().timeIntervalSince(start)) else { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return Date().timeIntervalSince(start) }
                buffer += chunk[..<count]
            }
            return nil
        }

        /// Everything received and not yet read as a line.
        var unread: String { String(decoding: buffer, as: UTF8.self) }

        func close() {
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }

        deinit { close() }
    }
}

/// True when `fd` is readable (or at its end) within `timeout` seconds.
func waitReadable(_ fd: Int32, timeout: Double) -> Bool {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&poller, 1, Int32(max(0, timeout) * 1000)) > 0
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
