@preconcurrency import Crypto
import Foundation

/// A file whose whole content is sealed with AES-GCM (nonce + ciphertext + tag: `AES.GCM.SealedBox.combined`).
/// Writes are atomic (temporary file 0600 + rename); reading a tampered/truncated file throws.
///
/// The file's name is authenticated with its content, so a sealed file copied or renamed over
/// another one (the last location over queued events, say) does not open.
public struct SealedFile: Sendable {
    public let url: URL
    private let key: SealingKey

    /// Sealed files are small records; anything larger is not one of ours.
    static let maximumSize = 16 << 20

    public init(url: URL, key: SealingKey) {
        self.url = url
        self.key = key
    }

    /// Seals `plaintext` with a fresh random nonce and replaces the file with it; creates the
    /// directory (0700) and the key's file when missing.
    public func write(_ plaintext: Data) throws {
        let sealed = try AES.GCM.seal(plaintext, using: key.key, authenticating: associatedData)
        // Only nil for nonces of another size than 12 bytes, which seal never makes.
        guard let combined = sealed.combined else {
            throw PersistenceError.io(path: url.path, operation: "seal", errno: EINVAL)
        }
        try PrivateFiles.makePrivateDirectory(url.deletingLastPathComponent().path)
        try key.restoreFileIfMissing()
        try combined.withUnsafeBytes { bytes in
            try PrivateFiles.replace(url.path, with: bytes)
        }
    }

    /// The plaintext, or nil when the file does not exist.
    /// - Throws: ``PersistenceError/tampered(path:)`` when the content fails authentication (changed,
    ///   truncated, renamed, or sealed with another key); `io` or `notARegularFile` otherwise.
    public func read() throws -> Data? {
        guard let combined = try PrivateFiles.readAll(url.path, limit: Self.maximumSize) else { return nil }
        do {
            let box = try AES.GCM.SealedBox(combined: combined)
            return try AES.GCM.open(box, using: key.key, authenticating: associatedData)
        } catch {
            throw PersistenceError.tampered(path: url.path)
        }
    }

    private var associatedData: Data { Data("corelocation.sealed-file.v1:\(url.lastPathComponent)".utf8) }
}
