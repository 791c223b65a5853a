#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `PlacesDatabase.shared` looks for `places.bin`, in order.
///
/// The package's copy is found through `/proc/self/exe`: SwiftPM copies a target's resources to
/// `<build dir>/swift-corelocation_LocationPlaces.resources/` beside the executables and test bundles it
/// builds (`swift run`, `swift test`). `Bundle.module` is not used: its accessor traps when the bundle is
/// absent, and an installed tool without the bundle must fall through to the system paths instead.
enum PlacesDatabaseDiscovery {
    static let environmentVariable = "CORELOCATION_PLACES_DB"
    static let resourceBundle = "swift-corelocation_LocationPlaces.resources"
    static let systemPaths = ["/usr/local/share/corelocation/places.bin", "/usr/share/corelocation/places.bin"]

    /// The first candidate that exists, opened. A file that exists but is corrupt is an error (not
    /// skipped: a broken installation should be reported, not hidden); so is a `$CORELOCATION_PLACES_DB`
    /// naming no file, because the variable was set on purpose.
    static func openFirst() -> Result<PlacesDatabase, PlacesDatabaseError> {
        let explicit = getenv(environmentVariable).map { String(cString: $0) }
        return openFirst(explicitPath: explicit, candidates: candidatePaths())
    }

    static func openFirst(explicitPath: String?, candidates: [String]) -> Result<PlacesDatabase, PlacesDatabaseError> {
        if let explicitPath, !explicitPath.isEmpty {
            return Result { () throws(PlacesDatabaseError) in try PlacesDatabase.open(path: explicitPath) }
        }
        for path in candidates where access(path, F_OK) == 0 {
            return Result { () throws(PlacesDatabaseError) in try PlacesDatabase.open(path: path) }
        }
        return .failure(.missing(searched: candidates))
    }

    static func candidatePaths() -> [String] {
        var paths: [String] = []
        if let directory = executableDirectory() {
            paths.append("\(directory)/\(resourceBundle)/places.bin")
        }
        return paths + systemPaths
    }

    /// The directory of the running executable (`/proc/self/exe` resolved), if the platform tells it.
    static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
