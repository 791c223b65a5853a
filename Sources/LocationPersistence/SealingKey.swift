@preconcurrency import Crypto
import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 256-bit AES-GCM key in a file of its own: 32 random bytes, 0600, in a 0700 directory. Created on first
/// use; an existing key file that is not exactly 32 bytes, or is readable by group/others, is an error (never
/// silently replaced: that would make the old data unreadable and hide tampering).
public struct SealingKey: Sendable {
    static let byteCount = 32

    let key: SymmetricKey
    /// The file the key was loaded from or saved to.
    let path: String

    private init(_ key: SymmetricKey, path: String) {
        self.key = key
        self.path = path
    }

    /// Loads the key at `url`, or creates it (and its directory) when there is none. Two processes
    /// creating it at once end up with the same key: the file appears complete or not at all, and
    /// the one that finds it taken uses it.
    /// - Throws: ``PersistenceError``: `badKeySize`, `insecurePermissions` (key file or directory),
    ///   `notARegularFile`, `io`.
    public static func loadOrCreate(at url: URL) throws -> SealingKey {
        let path = url.path
        try PrivateFiles.makePrivateDirectory(url.deletingLastPathComponent().path)
        if let existing = try load(path) { return existing }
        let key = SymmetricKey(size: .bits256)
        let created = try key.withUnsafeBytes { bytes in
            try PrivateFiles.createExclusively(path, with: bytes)
        }
        if created {
            Logger(label: "corelocation.persistence").notice("created a sealing key", metadata: ["path": "\(path)"])
            return SealingKey(key, path: path)
        }
        guard let winner = try load(path) else {
            throw PersistenceError.io(path: path, operation: "open a key created meanwhile", errno: ENOENT)
        }
        return winner
    }

    private static func load(_ path: String) throws -> SealingKey? {
        guard let (fd, st) = try PrivateFiles.openForReading(path) else { return nil }
        defer { close(fd) }
        let mode = UInt32(st.st_mode) & 0o7777
        guard mode & 0o077 == 0 else { throw PersistenceError.insecurePermissions(path: path, mode: mode) }
        guard st.st_size == byteCount else { throw PersistenceError.badKeySize(path: path, size: Int64(st.st_size)) }
        // One byte of room beyond the key tells a file that grew since fstat.
        var buffer = [UInt8](repeating: 0, count: byteCount + 1)
        defer { for index in buffer.indices { buffer[index] = 0 } }
        let count = try buffer.withUnsafeMutableBytes { bytes in
            try PrivateFiles.readFully(fd, into: bytes, path: path)
        }
        guard count == byteCount else { throw PersistenceError.badKeySize(path: path, size: Int64(count)) }
        return SealingKey(SymmetricKey(data: buffer[0..<byteCount]), path: path)
    }

    /// Writes the key to its file again when the file is gone (its state directory was removed while
    /// the service ran), so that what is sealed with it next can be opened after a restart. A file
    /// that is there — even another key, made meanwhile — is left alone.
    /// - Throws: ``PersistenceError`` when the directory or the file cannot be made.
    func restoreFileIfMissing() throws {
        var status = stat()
        guard lstat(path, &status) != 0, errno == ENOENT else { return }
        try PrivateFiles.makePrivateDirectory((path as NSString).deletingLastPathComponent)
        let created = try key.withUnsafeBytes { bytes in try PrivateFiles.createExclusively(path, with: bytes) }
        if created {
            Logger(label: "corelocation.persistence").warning("the sealing key's file was gone; wrote it again", metadata: ["path": "\(path)"])
        }
    }
}
