/// Why the places database could not be used. Each case names the file and says what to do.
public enum PlacesDatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No database at any of the searched paths.
    case missing(searched: [String])
    /// The file exists but could not be opened or mapped.
    case unreadable(path: String, reason: String)
    /// The file is not a valid places database (bad magic, truncated, an index out of bounds).
    case corrupt(path: String, reason: String)
    /// A places database of a format this build does not read.
    case unsupportedVersion(path: String, version: UInt32)

    public var description: String {
        switch self {
        case .missing(let searched):
            "no places database found (searched: \(searched.joined(separator: ", "))); "
                + "set CORELOCATION_PLACES_DB to the path of places.bin"
        case .unreadable(let path, let reason):
            "cannot read the places database at \(path): \(reason)"
        case .corrupt(let path, let reason):
            "the places database at \(path) is corrupt: \(reason); reinstall it or regenerate it with "
                + "scripts/places/build-places-db.py"
        case .unsupportedVersion(let path, let version):
            "the places database at \(path) has format version \(version); this build reads version \(PlacesFileDirectory.version)"
        }
    }
}
