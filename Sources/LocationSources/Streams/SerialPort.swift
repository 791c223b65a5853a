#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Serial-line settings for a receiver: raw mode, 8 data bits, no parity, 1 stop bit (8N1), no flow
/// control, the given baud rate.
enum SerialPort {
    /// The rates `baud=` accepts (the POSIX and Linux termios constants).
    static let supportedBaudRates = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600]

    /// The NMEA 0183 standard rate. Many modern receivers default to 9600 (u-blox) or more: say so
    /// with `?baud=`. USB CDC-ACM receivers (`/dev/ttyACM*`) and pseudo-terminals ignore the rate.
    static let defaultBaudRate = 4800

    static func speed(forBaud baud: Int) -> speed_t? {
        switch baud {
        case 1200: speed_t(B1200)
        case 2400: speed_t(B2400)
        case 4800: speed_t(B4800)
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115200: speed_t(B115200)
        case 230400: speed_t(B230400)
        #if os(Linux)
        case 460800: speed_t(B460800)
        case 921600: speed_t(B921600)
        #endif
        default: nil
        }
    }

    /// Puts the terminal `fd` in raw 8N1 mode at `baud`, without flow control; reads return as soon as
    /// one byte is there (VMIN 1, VTIME 0), and opening it never makes it our controlling terminal.
    static func configure(_ fd: Int32, baud: Int, label: String) throws(StreamError) {
        guard let speed = speed(forBaud: baud) else { throw StreamError("\(label): unsupported baud rate \(baud)") }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { throw .posix("tcgetattr \(label)", errno) }
        cfmakeraw(&settings)
        settings.c_cflag &= ~tcflag_t(CSIZE | PARENB | CSTOPB)
        settings.c_cflag &= ~tcflag_t(CRTSCTS)
        settings.c_cflag |= tcflag_t(CS8 | CLOCAL | CREAD)
        settings.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard cfsetispeed(&settings, speed) == 0, cfsetospeed(&settings, speed) == 0 else {
            throw .posix("set baud rate \(baud) on \(label)", errno)
        }
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else { throw .posix("tcsetattr \(label)", errno) }
    }
}
