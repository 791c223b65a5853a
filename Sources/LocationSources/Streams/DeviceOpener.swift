#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A receiver at a path: a serial device (`/dev/ttyUSB0`, `/dev/ttyACM0`, a pseudo-terminal), or a
/// named pipe. Terminals are put in raw 8N1 mode at `baud`; anything else is read as it is.
///
/// The device is opened read-only (a receiver is only listened to), non-blocking, without becoming
/// the controlling terminal. A USB receiver that is unplugged makes reads fail; the stream then ends
/// and is reopened, which fails with "No such file or directory" until it is back.
struct DeviceOpener: StreamOpener {
    var path: String
    var baud: Int

    var label: String { path }
    var reopensAfterEnd: Bool { true }

    func open(_ cancellation: OpenCancellation) throws(StreamError) -> OpenedDescriptor {
        let fd = systemOpen(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .posix("open \(path)", errno) }
        if isatty(fd) == 1 {
            do throws(StreamError) {
                try SerialPort.configure(fd, baud: baud, label: path)
            } catch {
                systemClose(fd)
                throw error
            }
        }
        return OpenedDescriptor(fd: fd, isSocket: false, isNonBlocking: true)
    }
}

/// Standard input, read as it comes (a pipe from another program, a terminal). Its end is final.
///
/// The descriptor is duplicated so closing the stream never closes the process's standard input, and
/// it is left in blocking mode: `O_NONBLOCK` would change the shared open file (the user's terminal).
/// Reads happen only when it is readable, one per readiness event, so they do not block.
struct StandardInputOpener: StreamOpener {
    var label: String { "standard input" }
    var reopensAfterEnd: Bool { false }

    func open(_ cancellation: OpenCancellation) throws(StreamError) -> OpenedDescriptor {
        let fd = dup(STDIN_FILENO)
        guard fd >= 0 else { throw .posix("dup standard input", errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return OpenedDescriptor(fd: fd, isSocket: false, isNonBlocking: false)
    }
}
