/// Why an app's fence file could not be read or written: the file, and what went wrong with it.
public struct FenceStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The sealed file or its key: unreadable, not a regular file, or failing authentication
        /// (changed, truncated, sealed with another key, or copied from another app's file).
        case storage(PersistenceError)
        /// Authentic, but its plaintext is not a fence file this version reads (or a value could not
        /// be written as one).
        case format(FenceFileError)
    }

    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .storage(let error): "fence file \(path): \(error)"
        case .format(let error): "fence file \(path): \(error)"
        }
    }
}

/// A file ``FenceStore/loadAll()`` could not load. It never stops the other apps' files from loading.
public struct FenceStoreFailure: Sendable, Equatable, CustomStringConvertible {
    public var error: FenceStoreError
    /// Where the file was moved so that the app starts afresh (see ``FenceStore/loadAll()``); nil
    /// when it was left where it was.
    public var movedTo: String?

    public init(error: FenceStoreError, movedTo: String?) {
        self.error = error
        self.movedTo = movedTo
    }

    public var description: String {
        guard let movedTo else { return "\(error) (left in place)" }
        return "\(error) (moved to \(movedTo))"
    }
}
