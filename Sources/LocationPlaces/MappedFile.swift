#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole file mapped read-only into memory, unmapped when the last reference goes.
///
/// The pages are shared with the page cache and never written, so the bytes are immutable for the
/// mapping's lifetime: reading them from any thread is safe (hence `@unchecked Sendable`).
final class MappedFile: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int

    /// Maps `path`. A zero-length file has nothing to map and is reported as corrupt by the caller, so
    /// it is mapped as an empty buffer here (mmap refuses length 0).
    init(path: String) throws(PlacesDatabaseError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            if error == ENOENT { throw .missing(searched: [path]) }
            throw .unreadable(path: path, reason: Self.describe(errno: error))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .unreadable(path: path, reason: Self.describe(errno: errno))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw .unreadable(path: path, reason: "not a regular file")
        }
        let size = Int(status.st_size)
        guard size > 0 else {
            base = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8))
            count = 0
            isMapped = false
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw .unreadable(path: path, reason: "mmap failed: \(Self.describe(errno: errno))")
        }
        base = UnsafeRawPointer(address)
        count = size
        isMapped = true
    }

    private let isMapped: Bool

    /// Lets go of the pages read so far: they stay in the page cache, and come back (a minor fault each)
    /// when a query reads them again. Opening reads every record once to check it; without this the whole
    /// file stays in the process's resident memory, where queries read only the parts they need.
    func releaseResidentPages() {
        #if os(Linux)
        if isMapped { _ = madvise(UnsafeMutableRawPointer(mutating: base), count, MADV_DONTNEED) }
        #endif
    }

    deinit {
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    private static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
