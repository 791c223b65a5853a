import Foundation

/// Why an Info.plist file could not be loaded by ``AppInfo/load(contentsOf:logger:)``.
///
/// A struct with a code rather than an enum, so that new reasons can be added without breaking callers.
public struct InfoPlistError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The file does not exist, is a directory, or cannot be read (permissions, I/O error).
        public static let unreadable = Code("unreadable")
        /// The bytes are neither an XML nor a binary (nor an OpenStep) property list.
        public static let notAPropertyList = Code("not a property list")
        /// The file is a property list, but its root object is not a dictionary.
        public static let rootNotDictionary = Code("root is not a dictionary")

        public var description: String { name }
    }

    public var code: Code
    /// The file that was being loaded.
    public var path: String
    /// A human-readable detail (the system's error, or the type found at the root).
    public var reason: String

    public init(code: Code, path: String, reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    public var description: String {
        "Info.plist \(path): \(code): \(reason)"
    }
}
