import Foundation

#if canImport(Glibc)
import Glibc
#endif

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
