#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a byte stream could not be opened or ended. `description` is one line (it becomes a
/// `.noFix(reason:)` and a log message).
struct StreamError: Error, Sendable, Equatable, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }

    /// `what: strerror(code)`, e.g. "open /dev/ttyUSB0: No such file or directory".
    static func posix(_ what: String, _ code: Int32) -> StreamError {
        StreamError("\(what): \(errorText(code))")
    }
}

/// The C library's text for an `errno` value.
func errorText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}
