import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX file operations the file store needs, with errors as errno values.
enum POSIXFile {
    struct Failure: Error {
        var errno: Int32
        var operation: String

        var reason: String { "\(operation): \(String(cString: strerror(errno))) (errno \(errno))" }
    }

    /// What `stat` says about a file, in the units we use.
    struct Status: Equatable {
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

        static func == (lhs: Status, rhs: Status) -> Bool {
            lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size && lhs.mode == rhs.mode
                && lhs.modifiedNanoseconds == rhs.modifiedNanoseconds && lhs.changedNanoseconds == rhs.changedNanoseconds
        }

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

    static func status(fd: Int32) throws(Failure) -> Status {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Failure(errno: errno, operation: "fstat") }
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

    /// Opens (creating when needed, mode 0600) and exclusively `flock`s a lock file. Blocks until locked.
    static func lockExclusive(path: String) throws(Failure) -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw Failure(errno: errno, operation: "open lock file") }
        while flock(fd, LOCK_EX) != 0 {
            let code = errno
            if code != EINTR {
                close(fd)
                throw Failure(errno: code, operation: "flock")
            }
        }
        return fd
    }

    /// Releases a lock taken by ``lockExclusive(path:)``.
    static func unlock(fd: Int32) {
        _ = flock(fd, LOCK_UN)
        close(fd)
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

    /// Makes the data at `dataPath` durable under `path`: writes a temporary file in the same directory
    /// (mode 0600), syncs it, renames it over `path`, and syncs the directory. The modification time of
    /// the new file is made later than `notBefore` so that change tokens always differ.
    static func replaceAtomically(path: String, with data: Data, temporaryPath: String, notBefore: timespec?) throws(Failure) {
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(errno: errno, operation: "create temporary file") }
        var renamed = false
        defer { if !renamed { unlink(temporaryPath) } }
        do {
            defer { close(fd) }
            _ = fchmod(fd, 0o600)
            try writeAll(fd: fd, data)
            if let previous = notBefore {
                let now = try status(fd: fd).modified
                if now.tv_sec < previous.tv_sec || (now.tv_sec == previous.tv_sec && now.tv_nsec <= previous.tv_nsec) {
                    var later = previous
                    later.tv_nsec += 1
                    if later.tv_nsec >= 1_000_000_000 {
                        later.tv_sec += 1
                        later.tv_nsec = 0
                    }
                    var times = [later, later]
                    _ = futimens(fd, &times)
                }
            }
            guard fsync(fd) == 0 else { throw Failure(errno: errno, operation: "fsync") }
        }
        guard rename(temporaryPath, path) == 0 else { throw Failure(errno: errno, operation: "rename") }
        renamed = true
        syncDirectory(of: path)
    }

    /// Flushes a directory entry change (a rename) to disk; best effort.
    static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
