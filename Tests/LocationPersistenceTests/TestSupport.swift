import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` with a fresh private temporary directory that is removed afterwards. The path is short
/// and unique, so tests may run in parallel.
func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
    var template = Array("/tmp/cl-persist-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    let url = URL(fileURLWithPath: String(cString: made), isDirectory: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// `stat`'s permission bits of a path.
func permissions(of path: String) -> UInt32? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return UInt32(st.st_mode) & 0o7777
}

extension Data {
    /// Whether `needle` occurs anywhere in these bytes.
    func contains(_ needle: String) -> Bool {
        range(of: Data(needle.utf8)) != nil
    }
}
