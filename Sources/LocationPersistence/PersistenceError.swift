import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why sealed location data or its key could not be read or written.
public enum PersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key file exists but does not hold exactly 32 bytes. It is left as it is.
    case badKeySize(path: String, size: Int64)
    /// The key file (or the directory holding key and data) can be read or changed by group or others.
    case insecurePermissions(path: String, mode: UInt32)
    /// A key or sealed file is not a regular file (a directory, a device, a symbolic link).
    case notARegularFile(path: String)
    /// The sealed data failed authentication: changed, truncated, or sealed with another key.
    case tampered(path: String)
    /// The data is authentic but not in a format this version reads.
    case undecodable(path: String, reason: String)
    /// A system call failed.
    case io(path: String, operation: String, errno: Int32)

    public var description: String {
        switch self {
        case let .badKeySize(path, size):
            "sealing key \(path) holds \(size) bytes, not 32 (left untouched: data sealed with it cannot be opened without it)"
        case let .insecurePermissions(path, mode):
            "\(path) has mode \(String(mode, radix: 8)): group or others can reach it (expected 0600 for a file, 0700 for a directory)"
        case let .notARegularFile(path):
            "\(path) is not a regular file"
        case let .tampered(path):
            "sealed file \(path) failed authentication: changed, truncated, or sealed with another key"
        case let .undecodable(path, reason):
            "sealed file \(path) is authentic but unreadable: \(reason)"
        case let .io(path, operation, code):
            "\(path): \(operation): \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}
