import Foundation
import LocationWire
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's socket file: its directory and permissions, and what to do with a file already there.
struct SocketFile {
    let path: String
    let instance: DaemonConfiguration.Instance

    /// User instance: only the user may reach the socket. System instance: anyone may connect —
    /// identity comes from the kernel, not from who can open the file.
    var directoryMode: mode_t { instance == .user ? 0o700 : 0o755 }
    var socketMode: mode_t { instance == .user ? 0o600 : 0o666 }

    /// Creates the directory if needed and clears the way for `bind`: a stale socket (nobody listening)
    /// is removed; a live one means another daemon runs.
    func prepare(logger: Logger) throws(DaemonError) {
        guard path.utf8.count <= 107 else {
            throw DaemonError("socket path \(path) is \(path.utf8.count) bytes; Unix sockets allow at most 107")
        }
        let directory = (path as NSString).deletingLastPathComponent
        try makeDirectory(directory, logger: logger)
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw DaemonError("\(path) exists and is not a socket; not touching it")
        }
        if DaemonPaths.isListening(path) { throw DaemonError("locationd is already running at \(path)") }
        logger.info("removing a stale socket nobody listens on", metadata: ["path": "\(path)"])
        guard unlink(path) == 0 || errno == ENOENT else {
            throw DaemonError("cannot remove the stale socket \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Sets the socket's mode once bound, and returns its inode (so `remove` deletes only our socket).
    func finishBinding() throws(DaemonError) -> ino_t {
        guard chmod(path, socketMode) == 0 else {
            throw DaemonError("cannot set the permissions of \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw DaemonError("the socket \(path) vanished after binding: \(String(cString: strerror(errno)))")
        }
        return status.st_ino
    }

    /// Removes the socket file if it is still the one this daemon bound.
    func remove(inode: ino_t) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_ino == inode, status.st_mode & S_IFMT == S_IFSOCK else { return }
        unlink(path)
    }

    private func makeDirectory(_ directory: String, logger: Logger) throws(DaemonError) {
        var status = stat()
        if stat(directory, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw DaemonError("\(directory) is not a directory") }
            // An existing directory is not ours to chmod (it may be /tmp); the socket's own mode
            // still guards a user instance.
            if instance == .user, status.st_mode & 0o022 != 0, status.st_mode & S_ISVTX == 0 {
                logger.warning("the socket's directory is writable by others", metadata: ["directory": "\(directory)"])
            }
            return
        }
        let parent = (directory as NSString).deletingLastPathComponent
        if parent != directory, !parent.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw DaemonError("cannot create \(parent): \(error.localizedDescription)")
            }
        }
        guard mkdir(directory, directoryMode) == 0 else {
            if errno == EEXIST { return } // made by someone else meanwhile: not ours to chmod
            throw DaemonError("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        // mkdir applied the umask; set exactly the mode wanted.
        guard chmod(directory, directoryMode) == 0 else {
            throw DaemonError("cannot set the permissions of \(directory): \(String(cString: strerror(errno)))")
        }
    }
}
