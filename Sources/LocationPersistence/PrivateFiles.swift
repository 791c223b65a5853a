import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX file operations behind sealed files and keys: private modes whatever the umask, no
/// symbolic links followed, atomic replacement.
enum PrivateFiles {
    /// Creates `path` with mode 0700 (missing parents with the default mode). An existing directory is
    /// accepted unless group or others may write to it: they could swap the key or the data.
    static func makePrivateDirectory(_ path: String) throws {
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else { throw PersistenceError.notARegularFile(path: path) }
            let mode = UInt32(st.st_mode) & 0o7777
            guard mode & 0o022 == 0 else { throw PersistenceError.insecurePermissions(path: path, mode: mode) }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
                throw PersistenceError.io(path: parent, operation: "create directory", errno: Int32(code ?? Int(EACCES)))
            }
        }
        if mkdir(path, 0o700) != 0 {
            let code = errno
            guard code == EEXIST else { throw PersistenceError.io(path: path, operation: "mkdir", errno: code) }
            return try makePrivateDirectory(path)
        }
        // The umask may have taken bits away; make it exactly 0700.
        _ = chmod(path, 0o700)
    }

    /// An open regular file (never through a symbolic link), or nil when `path` does not exist.
    static func openForReading(_ path: String) throws -> (fd: Int32, status: stat)? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP { throw PersistenceError.notARegularFile(path: path) }
            throw PersistenceError.io(path: path, operation: "open", errno: code)
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let code = errno
            close(fd)
            throw PersistenceError.io(path: path, operation: "fstat", errno: code)
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw PersistenceError.notARegularFile(path: path)
        }
        return (fd, st)
    }

    /// Fills `buffer` from `fd`; returns how many bytes were read (fewer only at end of file).
    static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws -> Int {
        var total = 0
        while total < buffer.count {
            let count = read(fd, buffer.baseAddress! + total, buffer.count - total)
            if count > 0 {
                total += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw PersistenceError.io(path: path, operation: "read", errno: errno)
            }
        }
        return total
    }

    /// The whole file, or nil when it does not exist. Larger than `limit` bytes is an error.
    static func readAll(_ path: String, limit: Int) throws -> Data? {
        guard let (fd, st) = try openForReading(path) else { return nil }
        defer { close(fd) }
        guard st.st_size <= limit else { throw PersistenceError.io(path: path, operation: "read (larger than \(limit) bytes)", errno: EFBIG) }
        var data = Data(count: Int(st.st_size) + 1)
        let count = try data.withUnsafeMutableBytes { buffer in
            try readFully(fd, into: buffer, path: path)
        }
        // One byte more than stat said tells a file that grew while read; take what was there then.
        data.count = min(count, Int(st.st_size))
        return data
    }

    /// Writes `bytes` to a new temporary file beside `path` (0600, synced) and hands it to `commit`
    /// (rename or link). The temporary file never outlives the call.
    private static func withTemporaryCopy(
        of bytes: UnsafeRawBufferPointer, beside path: String,
        _ commit: (String) throws -> Void
    ) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(
            ".\(name).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PersistenceError.io(path: temporary, operation: "create", errno: errno) }
        defer { unlink(temporary) }
        do {
            defer { close(fd) }
            guard fchmod(fd, 0o600) == 0 else { throw PersistenceError.io(path: temporary, operation: "fchmod", errno: errno) }
            var offset = 0
            while offset < bytes.count {
                let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written >= 0 {
                    offset += written
                } else if errno != EINTR {
                    throw PersistenceError.io(path: temporary, operation: "write", errno: errno)
                }
            }
            guard fsync(fd) == 0 else { throw PersistenceError.io(path: temporary, operation: "fsync", errno: errno) }
        }
        try commit(temporary)
        syncDirectory(directory)
    }

    /// Replaces `path` with `bytes` atomically: a reader sees the old file or the new one, never a part.
    static func replace(_ path: String, with bytes: UnsafeRawBufferPointer) throws {
        try withTemporaryCopy(of: bytes, beside: path) { temporary in
            guard rename(temporary, path) == 0 else { throw PersistenceError.io(path: path, operation: "rename", errno: errno) }
        }
    }

    /// Creates `path` holding `bytes`, complete or not at all; false when `path` already exists (it
    /// is left as it is).
    static func createExclusively(_ path: String, with bytes: UnsafeRawBufferPointer) throws -> Bool {
        var created = true
        try withTemporaryCopy(of: bytes, beside: path) { temporary in
            // link(2), unlike rename(2), never replaces an existing file.
            guard link(temporary, path) == 0 else {
                let code = errno
                guard code == EEXIST else { throw PersistenceError.io(path: path, operation: "link", errno: code) }
                created = false
                return
            }
        }
        return created
    }

    /// Removes `path` and makes the removal durable; a missing file is not an error.
    static func remove(_ path: String) throws {
        guard unlink(path) == 0 else {
            let code = errno
            guard code == ENOENT else { throw PersistenceError.io(path: path, operation: "unlink", errno: code) }
            return
        }
        syncDirectory((path as NSString).deletingLastPathComponent)
    }

    /// Renames `path` to `destination` (replacing it) and makes the rename durable.
    static func move(_ path: String, to destination: String) throws {
        guard rename(path, destination) == 0 else { throw PersistenceError.io(path: path, operation: "rename", errno: errno) }
        syncDirectory((path as NSString).deletingLastPathComponent)
    }

    /// Which file `path` is now (device and inode), without following a symbolic link; nil when none.
    static func identity(of path: String) -> FileIdentity? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// Flushes a directory entry change to disk; best effort.
    private static func syncDirectory(_ directory: String) {
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
