import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A directory of one test's own under `/tmp`, made by `mkdtemp` (unique and private, so tests may run
/// in parallel) with a short path: a Unix socket inside it fits the 107 bytes `sockaddr_un` allows.
/// The caller removes it with ``remove()``, or lets ``withTemporaryDirectory(_:)`` do so.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        var template = Array("/tmp/cl-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mkdtemp: \(String(cString: strerror(errno)))"])
        }
        url = URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    public var path: String { url.path }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `body` with a fresh ``TemporaryDirectory`` that is removed afterwards, however `body` ends.
public func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try body(directory.url)
}

/// Runs `body` with a fresh ``TemporaryDirectory`` that is removed afterwards, however `body` ends.
public func withTemporaryDirectory<R>(_ body: (URL) async throws -> R) async throws -> R {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try await body(directory.url)
}
