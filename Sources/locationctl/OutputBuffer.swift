#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A large buffer in front of a file descriptor: output is written in a few big `write(2)` calls.
final class OutputBuffer {
    let fd: Int32
    let capacity: Int
    private let base: UnsafeMutablePointer<UInt8>
    private var count = 0

    init(fd: Int32, capacity: Int = 1 << 20) {
        self.fd = fd
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Room for `n` bytes (n ≤ capacity), flushing first if needed; write them, then `commit(n)`.
    @inline(__always) func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity - count < n { flush() }
        return base + count
    }

    @inline(__always) func commit(_ n: Int) { count += n }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var offset = 0
            while offset < utf8.count {
                let chunk = min(utf8.count - offset, capacity)
                let p = reserve(chunk)
                p.update(from: utf8.baseAddress! + offset, count: chunk)
                commit(chunk)
                offset += chunk
            }
        }
    }

    /// Writes everything buffered. A closed pipe (`| head`) ends the program quietly; any other
    /// write error ends it with a message.
    func flush() {
        var offset = 0
        while offset < count {
            let written = write(fd, base + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { exit(0) }
                let message = "locationctl: cannot write output: \(String(cString: strerror(errno)))\n"
                _ = message.withCString { write(2, $0, strlen($0)) }
                exit(1)
            }
            offset += written
        }
        count = 0
    }
}
