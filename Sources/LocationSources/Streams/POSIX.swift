#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Thin names for the C calls whose Swift names collide with methods (`open`, `close`, `read`).

func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, flags)
    #else
    Darwin.open(path, flags)
    #endif
}

func systemClose(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}

func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer.baseAddress, buffer.count)
    #else
    Darwin.read(fd, buffer.baseAddress, buffer.count)
    #endif
}

/// Writes without blocking and without `SIGPIPE` (sockets); the count written, or -1 with `errno`.
func systemSend(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, isSocket: Bool) -> Int {
    guard isSocket else { return write(fd, bytes.baseAddress, bytes.count) }
    #if canImport(Glibc)
    return send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
    #else
    return send(fd, bytes.baseAddress, bytes.count, MSG_DONTWAIT)
    #endif
}

func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
    Glibc.connect(fd, address, length)
    #else
    Darwin.connect(fd, address, length)
    #endif
}
