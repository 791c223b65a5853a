import Foundation

/// A TCP listener on 127.0.0.1 standing in for a network GPS receiver: the test sees when the
/// daemon opens it (demand) and when it closes it (demand released).
final class NMEAServer: @unchecked Sendable {
    private let listener: Int32
    let port: UInt16

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    /// The next connection, or nil after `timeout` seconds.
    func accept(timeout: TimeInterval) -> Int32? {
        guard wait(listener, timeout: timeout) else { return nil }
        let connection = Glibc.accept(listener, nil, nil)
        return connection >= 0 ? connection : nil
    }

    /// When the peer closed `connection` (read returned 0 or failed), or nil after `timeout` seconds.
    func waitForEOF(_ connection: Int32, timeout: TimeInterval) -> Date? {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            guard wait(connection, timeout: deadline.timeIntervalSinceNow) else { return nil }
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            if count <= 0 { return Date() }
        }
        return nil
    }

    private func wait(_ fd: Int32, timeout: TimeInterval) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, Int32(max(0, timeout) * 1000)) > 0
    }

    func close() { Glibc.close(listener) }
}
