/// Why the plaintext of a fence file could not be read, or a value could not be written as one.
public enum FenceFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a fence file at all: not JSON, not an object, or another `format`.
    case notAFenceFile(String)
    /// A fence file of a format version this version does not read (written by a newer one).
    case unsupportedVersion(Int)
    /// A fence file of another app than the one it was read for (`expectedAppID`; nil: the app the
    /// file's name stands for).
    case foreign(storedAppID: String, expectedAppID: String?)
    /// A fence file of this version with a value that breaks its rules (a field missing or unknown,
    /// a coordinate out of range, a duplicate identifier, …).
    case invalid(String)
    /// The value would make a file larger than the reader accepts.
    case tooLarge(bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case let .notAFenceFile(reason):
            "not a fence file: \(reason)"
        case let .unsupportedVersion(version):
            "format version \(version); this version reads \(FenceFileFormat.version)"
        case let .foreign(stored, expected?):
            "the file belongs to app \"\(stored)\", not \"\(expected)\""
        case let .foreign(stored, nil):
            "the file belongs to app \"\(stored)\", not to the app its name stands for"
        case let .invalid(reason):
            "invalid: \(reason)"
        case let .tooLarge(bytes, limit):
            "\(bytes) bytes, above the limit of \(limit)"
        }
    }
}
