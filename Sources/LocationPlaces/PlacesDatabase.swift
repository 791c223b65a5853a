import Logging

/// The offline world database: countries, subdivisions, populated places, country polygons.
///
/// Why memory-mapping: the file (~24 MB) is used in place, so opening costs one `mmap` and a validation
/// pass over the indexes, not a parse: the first answer comes within milliseconds of process start, pages
/// are shared with every other process using the database, and only the pages queries touch are read.
/// Validation checks every reference once (`PlacesFileValidator`), so queries use unchecked loads.
///
/// Why a grid and k-d trees: a 0.5° grid answers most points with one load (open sea, or a cell wholly
/// inside one country); only coastal and border cells test the few boundary lines clipped to them. The
/// locality is then the nearest place among that country's places, an implicit k-d tree on unit vectors,
/// so distances are true sphere distances with no seam at ±180° or at the poles; in a batch, the file's
/// nearest-place candidates (`NearestCandidates`) usually name the few places that can be nearest in the
/// point's ~1 km leaf, so the search is a few distances. The format is in docs/places-database.md.
public final class PlacesDatabase: Sendable {
    /// The file this database was opened from.
    public let path: String
    let tables: PlacesTables
    let names: InternedNames
    let placeVectors: PlaceVectors
    let cellEntries: CellEntries
    let cellGeometry: CellGeometry
    /// The strings of every answer at sea outside territorial waters — one per water body and nautical
    /// zone (14 × 25), built at open — so such an answer allocates nothing.
    let seaAnswers: [PlaceDescription.Storage]
    /// The strings of a land answer with no locality, per country (built at open).
    let countryAnswers: [PlaceDescription.Storage]
    /// The working memory batches give back for the next batch (`ScratchPool`).
    let scratchPool = ScratchPool()

    private static let logger = Logger(label: "corelocation.places")

    /// Checks `tables`' references (`PlacesFileValidator`) while it builds what queries read beside the file,
    /// on two threads of about equal work: on a second thread the boundaries' check, then their copy, then the
    /// name index's check; on this one the place vectors and the cells' entries — which read records by index
    /// only, never through a reference — then the records' check. Nothing follows a reference before its
    /// check, and `tables` reaches no query unless all pass: the first answer comes that much sooner than with
    /// the checks first.
    private init(path: String, tables: PlacesTables) throws(PlacesDatabaseError) {
        self.path = path
        self.tables = tables
        var geometry: CellGeometry?
        var vectors: PlaceVectors?
        var entries: CellEntries?
        // One variable a thread (not an array of two: both threads would write the array's storage).
        var boundariesFailure: PlacesDatabaseError?
        var recordsFailure: PlacesDatabaseError?
        inParallel(2) { part in
            if part == 0 {
                do throws(PlacesDatabaseError) {
                    try PlacesFileValidator.checkBoundaries(tables, path: path)
                    geometry = CellGeometry(tables)
                    try PlacesFileValidator.checkNameIndex(tables, path: path)
                } catch {
                    boundariesFailure = error
                }
            } else {
                (vectors, entries) = (PlaceVectors(tables), CellEntries(tables))
                do throws(PlacesDatabaseError) {
                    try PlacesFileValidator.checkRecords(tables, path: path)
                } catch {
                    recordsFailure = error
                }
            }
        }
        // When both threads failed, the records' failure is reported: the first in the checks' order.
        if let failure = recordsFailure ?? boundariesFailure { throw failure }
        // Every page the checks and the copies read: queries read a fraction of them again.
        tables.file.releaseResidentPages()
        self.names = InternedNames(tables)
        self.placeVectors = vectors!
        self.cellEntries = entries!
        self.cellGeometry = geometry!
        let names = self.names
        self.countryAnswers = (0..<tables.countryCount).map { country in
            PlaceDescription.Storage(
                name: names.countryNames[country], locality: nil, subAdministrativeArea: nil,
                administrativeArea: nil, country: names.countryNames[country],
                isoCountryCode: names.countryCodes[country],
                timeZoneIdentifier: names.timeZone(tables.countryTimeZone(country)), ocean: nil, inlandWater: nil)
        }
        self.seaAnswers = WaterBody.allCases.flatMap { water in
            WaterBody.nauticalZones.map { zone in
                PlaceDescription.Storage(
                    name: water.name, locality: nil, subAdministrativeArea: nil, administrativeArea: nil,
                    country: nil, isoCountryCode: nil, timeZoneIdentifier: zone,
                    ocean: water.isInland ? nil : water.name, inlandWater: water.isInland ? water.name : nil)
            }
        }
    }

    /// Opens (memory-maps) the database at `path`, validating its header and indexes.
    ///
    /// - Throws: `.missing` when there is no file at `path`, `.unreadable` when it cannot be opened or
    ///   mapped, `.corrupt` (with the precise reason) or `.unsupportedVersion` when it is not a version-2
    ///   places database.
    public static func open(path: String) throws(PlacesDatabaseError) -> PlacesDatabase {
        let database = try PlacesDatabase(path: path, tables: try PlacesFileValidator.map(path: path))
        logger.debug("opened the places database", metadata: [
            "path": "\(path)", "places": "\(database.placeCount)", "countries": "\(database.countryCount)",
        ])
        return database
    }

    /// The process-wide database, opened on first use from the first of: `$CORELOCATION_PLACES_DB`, the
    /// package's resources beside the running executable, `/usr/local/share/corelocation/places.bin`,
    /// `/usr/share/corelocation/places.bin`. The result (or the error) is kept.
    public static var shared: Result<PlacesDatabase, PlacesDatabaseError> { sharedOutcome }

    /// A `static let` is initialised once, lazily and thread-safely, so the first outcome is kept.
    private static let sharedOutcome: Result<PlacesDatabase, PlacesDatabaseError> = {
        let outcome = PlacesDatabaseDiscovery.openFirst()
        if case .failure(let error) = outcome {
            logger.warning("the places database is unavailable: \(error)")
        }
        return outcome
    }()

    /// The generator's `META` section: UTF-8 JSON (sources, versions, counts). Informational.
    public var metadataJSON: String {
        String(decoding: tables.metadata, as: UTF8.self)
    }

    /// Number of populated places and of countries in the database.
    public var placeCount: Int { tables.placeCount }
    public var countryCount: Int { tables.countryCount }
}
