import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair for tests: the test writes on the master what a serial receiver would
/// send; the source under test opens the slave (`path`, `/dev/pts/N`) as its serial device.
///
/// `posix_openpt`, `grantpt`, `unlockpt` and `ptsname` need `_XOPEN_SOURCE`, which Swift's Glibc
/// module does not define, so they are looked up at run time.
final class PseudoTerminal: @unchecked Sendable {
    let master: Int32
    let path: String

    private typealias Call = @convention(c) (Int32) -> Int32
    private typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    private static func function<T>(_ name: String, as type: T.Type) throws -> T {
        guard let symbol = dlsym(nil, name) else { throw TestFailure("\(name) not found") }
        return unsafeBitCast(symbol, to: type)
    }

    init() throws {
        let fd = try Self.function("posix_openpt", as: Call.self)(O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw TestFailure("posix_openpt: \(String(cString: strerror(errno)))") }
        guard try Self.function("grantpt", as: Call.self)(fd) == 0,
              try Self.function("unlockpt", as: Call.self)(fd) == 0,
              let name = try Self.function("ptsname", as: Name.self)(fd) else {
            Glibc.close(fd)
            throw TestFailure("grantpt/unlockpt/ptsname failed")
        }
        master = fd
        path = String(cString: name)
    }

    /// The terminal's current settings (master and slave share them).
    var settings: termios {
        var value = termios()
        tcgetattr(master, &value)
        return value
    }

    /// True once someone has put the line in raw mode at `baud` (the source opened and configured it).
    func isRaw(baud: speed_t) -> Bool {
        var value = settings
        let raw: Bool = value.c_lflag & tcflag_t(ICANON | ECHO) == 0
        let speed: Bool = cfgetispeed(&value) == baud && cfgetospeed(&value) == baud
        let eightBits: Bool = value.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8)
        let noParityOneStopNoFlow: Bool = value.c_cflag & tcflag_t(PARENB | CSTOPB) == 0
            && value.c_cflag & tcflag_t(CRTSCTS) == 0
        return raw && speed && eightBits && noParityOneStopNoFlow
    }

    @discardableResult
    func write(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) } == bytes.count
    }

    private var closed = false
    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(master)
    }

    deinit { close() }
}
