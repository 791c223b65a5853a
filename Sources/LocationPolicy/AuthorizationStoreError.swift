import Foundation

/// Why an ``AuthorizationStore`` could not be read or written.
public struct AuthorizationStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The file exists but cannot be read (permissions, I/O error, it is a directory).
        public static let unreadable = Code("unreadable")
        /// The file was read but is not a valid authorization database (not SQLite, damaged, foreign
        /// tables, values out of range). It is left untouched.
        public static let corrupt = Code("corrupt")
        /// The file was written by a newer version of this software, with a schema this one does not know.
        public static let unsupportedVersion = Code("unsupported version")
        /// The database stayed locked by another writer for longer than the busy timeout.
        public static let lockFailed = Code("lock failed")
        /// Creating the directory or file, or writing the new contents, failed; the previous contents are
        /// intact (the write was one transaction).
        public static let writeFailed = Code("write failed")

        public var description: String { name }
    }

    public var code: Code
    /// The file or directory concerned.
    public var path: String
    /// A human-readable detail.
    public var reason: String

    public init(code: Code, path: String, reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch code {
        case .corrupt, .unsupportedVersion:
            "authorization store \(path) is \(code): \(reason) (left untouched: fix or remove it)"
        default:
            "authorization store \(path): \(code): \(reason)"
        }
    }
}
