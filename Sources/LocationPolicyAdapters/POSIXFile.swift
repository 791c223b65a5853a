import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX file operations the policy layer needs, with errors as errno values.
enum POSIXFile {
    struct Failure: Error {
        var errno: Int32
        var operation: String

        var reason: String { "\(operation): \(String(cString: strerror(errno))) (errno \(errno))" }
    }

    /// What `stat` says about a file, in the units we use.
    struct Status {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var mode: UInt32
        var modified: timespec
        var changed: timespec

        var modifiedNanoseconds: Int64 { Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec) }
        var changedNanoseconds: Int64 { Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec) }
        var permissions: UInt32 { mode & 0o7777 }
        var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
        var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }

        init(_ st: stat) {
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
            size = Int64(st.st_size)
            mode = UInt32(st.st_mode)
            #if canImport(Darwin)
            modified = st.st_mtimespec
            changed = st.st_ctimespec
            #else
            modified = st.st_mtim
            changed = st.st_ctim
            #endif
        }
    }

    /// `stat(2)`; nil when the file does not exist.
    static func status(path: String) throws(Failure) -> Status? {
        var st = stat()
        guard stat(path, &st) == 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw Failure(errno: code, operation: "stat")
        }
        return Status(st)
    }

    /// The whole file, or nil when it does not exist.
    static func readAll(path: String) throws(Failure) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw Failure(errno: code, operation: "open")
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return data
            } else if errno != EINTR {
                throw Failure(errno: errno, operation: "read")
            }
        }
    }

    static func writeAll(fd: Int32, _ data: Data) throws(Failure) {
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { bytes in
                write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written >= 0 {
                offset += written
            } else if errno != EINTR {
                throw Failure(errno: errno, operation: "write")
            }
        }
    }

    /// Creates `path` with mode 0700 (its parents with the default mode) unless it exists.
    static func makePrivateDirectory(path: String) throws(Failure) {
        if let existing = try status(path: path) {
            guard existing.isDirectory else { throw Failure(errno: ENOTDIR, operation: "directory") }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
                throw Failure(errno: Int32(code ?? Int(EACCES)), operation: "create parent directory \(parent)")
            }
        }
        if mkdir(path, 0o700) != 0 {
            let code = errno
            guard code == EEXIST else { throw Failure(errno: code, operation: "mkdir") }
            return
        }
        // The umask may have taken bits away; make it exactly 0700.
        _ = chmod(path, 0o700)
    }

    /// Creates an empty file with mode 0600 whatever the umask. Returns false when `path` exists.
    static func createPrivateFile(path: String) throws(Failure) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            if code == EEXIST { return false }
            throw Failure(errno: code, operation: "create")
        }
        defer { close(fd) }
        guard fchmod(fd, 0o600) == 0 else { throw Failure(errno: errno, operation: "fchmod") }
        return true
    }
}
