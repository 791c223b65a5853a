import Foundation
import LocationProtocol

/// The plaintext of one app's fence file (``FenceStore`` seals it): a JSON object
///
///     {"format": "corelocation.fences", "version": 1, "app": "org.example.maps",
///      "groups": [{"kind": "regions", "fences": [...], "pending": [...]},
///                 {"kind": "monitor", "name": "Work", "fences": [...], "pending": [...]}]}
///
/// with a fence `{"identifier", "condition": {"kind": "circle", "latitude", "longitude", "radius"} |
/// {"kind": "beacon", "uuid", "major"?, "minor"?}, "notifyOnEntry", "notifyOnExit", "assumedState",
/// "lastEvent": {"state", "date", "issue"?}}` and a pending event `{"identifier", "state", "date",
/// "issue"?}`; dates are seconds since 2001-01-01 UTC.
///
/// Reading is strict and refuses rather than guesses: another `format` or `version`, another app,
/// a field unknown or missing, an enumerated value it does not know, a coordinate out of range, a
/// radius that is not a positive finite number, a date that is not finite, an identifier or monitor
/// name empty or longer than ``maximumIdentifierBytes``, two fences with one identifier in a group,
/// one group twice, an empty group, counts above the limits below. Writing applies the same rules,
/// so what is written always reads back: the encoding is canonical (groups in `FenceGroup` order,
/// empty groups left out, keys sorted), and decoding it gives the same value.
enum FenceFileFormat {
    /// The magic: the `format` field of every fence file.
    static let magic = "corelocation.fences"
    static let version = 1

    /// Limits of the file: they bound the work a damaged or hostile file can cause. Apple lets an
    /// app keep 20 fences, but an embedded or server app may be allowed far more
    /// (`CORELOCATION_FENCE_LIMIT`, `locationd --fence-limit`): a million fences of ~250 bytes each
    /// fit.
    struct Limits {
        var bytes = 512 << 20
        var groups = 256
        var fencesPerGroup = 1_000_000
        var pendingEventsPerGroup = 1000

        static let standard = Limits()
    }
    /// Fence identifiers and monitor names, in UTF-8.
    static let maximumIdentifierBytes = 1024
    /// A bundle identifier or an executable's path (`PATH_MAX`), in UTF-8.
    static let maximumAppIDBytes = 4096

    // MARK: - Reading

    /// The fences of `appID` in `data`.
    /// - Throws: ``FenceFileError``; `foreign` when the file names another app.
    static func decode(_ data: Data, appID: String, limits: Limits = .standard) throws(FenceFileError) -> StoredFences {
        let (stored, fences) = try decodeAnyApp(data, limits: limits)
        guard stored == appID else { throw .foreign(storedAppID: stored, expectedAppID: appID) }
        return fences
    }

    /// The app a file names and its fences, whichever app that is.
    static func decodeAnyApp(_ data: Data, limits: Limits = .standard) throws(FenceFileError) -> (appID: String, fences: StoredFences) {
        guard data.count <= limits.bytes else { throw .invalid("\(data.count) bytes, above the limit of \(limits.bytes)") }
        let header: FenceFileHeaderDTO
        do {
            header = try JSONDecoder().decode(FenceFileHeaderDTO.self, from: data)
        } catch {
            throw .notAFenceFile(describe(error))
        }
        guard let format = header.format else { throw .notAFenceFile("no \"format\" string") }
        guard format == magic else { throw .notAFenceFile("format \"\(format)\", expected \"\(magic)\"") }
        guard let version = header.version else { throw .invalid("version: missing or not an integer") }
        guard version == Self.version else { throw .unsupportedVersion(version) }

        let file: FenceFileDTO
        do {
            file = try JSONDecoder().decode(FenceFileDTO.self, from: data)
        } catch {
            throw .invalid(describe(error))
        }
        try checkAppID(file.app)
        return (file.app, try fences(file.groups, limits: limits))
    }

    private static func fences(_ dtos: [FenceGroupDTO], limits: Limits) throws(FenceFileError) -> StoredFences {
        guard dtos.count <= limits.groups else { throw .invalid("\(dtos.count) groups, above the limit of \(limits.groups)") }
        var groups: [FenceGroup: StoredFences.Group] = [:]
        for (index, dto) in dtos.enumerated() {
            let path = "groups[\(index)]"
            let group = try fenceGroup(dto, at: path)
            guard groups[group] == nil else { throw .invalid("\(path): \(describe(group)) appears twice") }
            groups[group] = try groupContents(dto, at: path, limits: limits)
        }
        return StoredFences(groups: groups)
    }

    private static func fenceGroup(_ dto: FenceGroupDTO, at path: String) throws(FenceFileError) -> FenceGroup {
        switch dto.kind {
        case "regions":
            guard dto.name == nil else { throw .invalid("\(path).name: a regions group has no name") }
            return .regions
        case "monitor":
            guard let name = dto.name else { throw .invalid("\(path).name: missing for a monitor") }
            try checkIdentifier(name, at: "\(path).name")
            return .monitor(name)
        default:
            throw .invalid("\(path).kind: unknown value \(quoted(dto.kind))")
        }
    }

    private static func groupContents(_ dto: FenceGroupDTO, at path: String, limits: Limits) throws(FenceFileError) -> StoredFences.Group {
        guard dto.fences.count <= limits.fencesPerGroup else {
            throw .invalid("\(path).fences: \(dto.fences.count) fences, above the limit of \(limits.fencesPerGroup)")
        }
        guard dto.pending.count <= limits.pendingEventsPerGroup else {
            throw .invalid("\(path).pending: \(dto.pending.count) events, above the limit of \(limits.pendingEventsPerGroup)")
        }
        guard !dto.fences.isEmpty || !dto.pending.isEmpty else { throw .invalid("\(path): an empty group") }
        var records: [FenceRecord] = []
        var identifiers: Set<String> = []
        for (index, fence) in dto.fences.enumerated() {
            let record = try record(fence, at: "\(path).fences[\(index)]")
            guard identifiers.insert(record.definition.identifier).inserted else {
                throw .invalid("\(path).fences[\(index)].identifier: \(quoted(record.definition.identifier)) is already used in this group")
            }
            records.append(record)
        }
        var pending: [FenceEvent] = []
        for (index, event) in dto.pending.enumerated() {
            let at = "\(path).pending[\(index)]"
            try checkIdentifier(event.identifier, at: "\(at).identifier")
            pending.append(FenceEvent(
                identifier: event.identifier, state: try state(event.state, at: "\(at).state"),
                date: try date(event.date, at: "\(at).date"), issue: try issue(event.issue, at: "\(at).issue")))
        }
        return StoredFences.Group(records: records, pendingEvents: pending)
    }

    private static func record(_ dto: FenceRecordDTO, at path: String) throws(FenceFileError) -> FenceRecord {
        try checkIdentifier(dto.identifier, at: "\(path).identifier")
        let definition = FenceDefinition(
            identifier: dto.identifier, condition: try condition(dto.condition, at: "\(path).condition"),
            notifyOnEntry: dto.notifyOnEntry, notifyOnExit: dto.notifyOnExit,
            assumedState: try state(dto.assumedState, at: "\(path).assumedState"))
        let last = FenceEvent(
            identifier: dto.identifier, state: try state(dto.lastEvent.state, at: "\(path).lastEvent.state"),
            date: try date(dto.lastEvent.date, at: "\(path).lastEvent.date"),
            issue: try issue(dto.lastEvent.issue, at: "\(path).lastEvent.issue"))
        return FenceRecord(definition: definition, lastEvent: last)
    }

    private static func condition(_ dto: FenceConditionDTO, at path: String) throws(FenceFileError) -> FenceCondition {
        switch dto.kind {
        case "circle":
            guard dto.uuid == nil, dto.major == nil, dto.minor == nil else {
                throw .invalid("\(path): a circle has no uuid, major or minor")
            }
            guard let latitude = dto.latitude, let longitude = dto.longitude, let radius = dto.radius else {
                throw .invalid("\(path): a circle needs latitude, longitude and radius")
            }
            guard latitude.isFinite, (-90...90).contains(latitude) else {
                throw .invalid("\(path).latitude: \(latitude) is not in [-90, 90]")
            }
            guard longitude.isFinite, (-180...180).contains(longitude) else {
                throw .invalid("\(path).longitude: \(longitude) is not in [-180, 180]")
            }
            guard radius.isFinite, radius > 0 else {
                throw .invalid("\(path).radius: \(radius) is not a positive finite number")
            }
            return .circle(latitude: latitude, longitude: longitude, radius: radius)
        case "beacon":
            guard dto.latitude == nil, dto.longitude == nil, dto.radius == nil else {
                throw .invalid("\(path): a beacon has no latitude, longitude or radius")
            }
            guard let text = dto.uuid else { throw .invalid("\(path).uuid: missing for a beacon") }
            guard let uuid = UUID(uuidString: text) else { throw .invalid("\(path).uuid: \(quoted(text)) is not a UUID") }
            return .beacon(
                uuid: uuid, major: try beaconNumber(dto.major, at: "\(path).major"),
                minor: try beaconNumber(dto.minor, at: "\(path).minor"))
        default:
            throw .invalid("\(path).kind: unknown value \(quoted(dto.kind))")
        }
    }

    private static func beaconNumber(_ number: Int?, at path: String) throws(FenceFileError) -> UInt16? {
        guard let number else { return nil }
        guard let value = UInt16(exactly: number) else { throw .invalid("\(path): \(number) is not in [0, 65535]") }
        return value
    }

    private static func state(_ text: String, at path: String) throws(FenceFileError) -> FenceState {
        guard let state = FenceState.allCases.first(where: { name(of: $0) == text }) else {
            throw .invalid("\(path): unknown value \(quoted(text))")
        }
        return state
    }

    private static func issue(_ text: String?, at path: String) throws(FenceFileError) -> FenceIssue? {
        guard let text else { return nil }
        guard let issue = FenceIssue.allCases.first(where: { name(of: $0) == text }) else {
            throw .invalid("\(path): unknown value \(quoted(text))")
        }
        return issue
    }

    private static func date(_ seconds: Double, at path: String) throws(FenceFileError) -> Date {
        guard seconds.isFinite else { throw .invalid("\(path): \(seconds) is not a finite date") }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    private static func checkIdentifier(_ identifier: String, at path: String) throws(FenceFileError) {
        guard !identifier.isEmpty else { throw .invalid("\(path): empty") }
        let bytes = identifier.utf8.count
        guard bytes <= maximumIdentifierBytes else {
            throw .invalid("\(path): \(bytes) bytes of UTF-8, above the limit of \(maximumIdentifierBytes)")
        }
    }

    private static func checkAppID(_ appID: String) throws(FenceFileError) {
        guard !appID.isEmpty else { throw .invalid("app: empty") }
        let bytes = appID.utf8.count
        guard bytes <= maximumAppIDBytes else {
            throw .invalid("app: \(bytes) bytes of UTF-8, above the limit of \(maximumAppIDBytes)")
        }
    }

    // MARK: - Writing

    /// The file's plaintext for `fences` of `appID`.
    /// - Throws: ``FenceFileError``: `invalid` for a value the reader would refuse (a fence's last event
    ///   naming another fence included), `tooLarge` above the byte limit.
    static func encode(_ fences: StoredFences, appID: String, limits: Limits = .standard) throws(FenceFileError) -> Data {
        let groups = fences.groups.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        var dtos: [FenceGroupDTO] = []
        for (index, (group, contents)) in groups.enumerated() {
            for (fenceIndex, record) in contents.records.enumerated()
            where record.lastEvent.identifier != record.definition.identifier {
                throw .invalid(
                    "groups[\(index)].fences[\(fenceIndex)]: the last event of \(quoted(record.definition.identifier)) names \(quoted(record.lastEvent.identifier))")
            }
            dtos.append(dto(group, contents))
        }
        let file = FenceFileDTO(format: magic, version: version, app: appID, groups: dtos)
        // The reader's checks, on the very values written: nothing is written that would not read back.
        try checkAppID(appID)
        _ = try Self.fences(dtos, limits: limits)
        let data: Data
        do {
            data = try encoder.encode(file)
        } catch {
            throw .invalid("encoding failed: \(error)")
        }
        guard data.count <= limits.bytes else { throw .tooLarge(bytes: data.count, limit: limits.bytes) }
        return data
    }

    private static func dto(_ group: FenceGroup, _ contents: StoredFences.Group) -> FenceGroupDTO {
        let (kind, name): (String, String?) = switch group {
        case .regions: ("regions", nil)
        case .monitor(let name): ("monitor", name)
        }
        return FenceGroupDTO(
            kind: kind, name: name,
            fences: contents.records.map(dto),
            pending: contents.pendingEvents.map {
                FenceEventDTO(
                    identifier: $0.identifier, state: Self.name(of: $0.state),
                    date: $0.date.timeIntervalSinceReferenceDate, issue: $0.issue.map(Self.name(of:)))
            })
    }

    private static func dto(_ record: FenceRecord) -> FenceRecordDTO {
        let definition = record.definition
        let condition = switch definition.condition {
        case let .circle(latitude, longitude, radius):
            FenceConditionDTO(kind: "circle", latitude: latitude, longitude: longitude, radius: radius)
        case let .beacon(uuid, major, minor):
            FenceConditionDTO(kind: "beacon", uuid: uuid.uuidString, major: major.map(Int.init), minor: minor.map(Int.init))
        }
        return FenceRecordDTO(
            identifier: definition.identifier, condition: condition,
            notifyOnEntry: definition.notifyOnEntry, notifyOnExit: definition.notifyOnExit,
            assumedState: name(of: definition.assumedState),
            lastEvent: FenceStateDTO(
                state: name(of: record.lastEvent.state), date: record.lastEvent.date.timeIntervalSinceReferenceDate,
                issue: record.lastEvent.issue.map(name(of:))))
    }

    /// Keys sorted and doubles in shortest exact form: one value, one encoding, and it reads back equal.
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    // MARK: - Names

    // The file's names for enumerated values, spelled out here rather than taken from raw values: a
    // renamed case in LocationProtocol fails to compile instead of changing the format.

    static func name(of state: FenceState) -> String {
        switch state {
        case .unknown: "unknown"
        case .inside: "inside"
        case .outside: "outside"
        case .unmonitored: "unmonitored"
        }
    }

    static func name(of issue: FenceIssue) -> String {
        switch issue {
        case .denied: "denied"
        case .accuracyLimited: "accuracyLimited"
        case .limitExceeded: "limitExceeded"
        case .invalidRegion: "invalidRegion"
        case .unsupported: "unsupported"
        case .persistenceUnavailable: "persistenceUnavailable"
        }
    }

    private static func describe(_ group: FenceGroup) -> String {
        switch group {
        case .regions: "the regions group"
        case .monitor(let name): "monitor \(quoted(name))"
        }
    }

    /// A string from the file for an error message: quoted, escaped, and cut short when long.
    private static func quoted(_ text: String) -> String {
        let short = text.unicodeScalars.count > 80 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(80))) + "…" : text
        return "\"" + short.unicodeScalars.map { $0.escaped(asASCII: false) }.joined() + "\""
    }

    /// A decoding error as "where: what".
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        let (context, what): (DecodingError.Context, String) = switch error {
        case let .typeMismatch(type, context): (context, "expected \(type)")
        case let .valueNotFound(type, context): (context, "expected \(type), found null")
        case let .keyNotFound(key, context): (context, "missing field \"\(key.stringValue)\"")
        case let .dataCorrupted(context): (context, context.debugDescription)
        @unknown default: (DecodingError.Context(codingPath: [], debugDescription: ""), "\(error)")
        }
        var path = ""
        for key in context.codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return path.isEmpty ? what : "\(path): \(what)"
    }
}
