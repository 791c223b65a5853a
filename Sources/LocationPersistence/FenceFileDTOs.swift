import Foundation

// The JSON of a fence file, field for field: the format's own types, so that changing a shared value
// (LocationProtocol's fences) cannot change what is on disk unnoticed. Decoding here checks only the
// shape (every field present with its JSON type, no field unknown); what the values mean and whether
// they are in range is FenceFileFormat's conversion.

/// The fields read before the rest, whatever the rest holds: which format and which version. A field
/// of another JSON type reads as missing.
struct FenceFileHeaderDTO: Decodable {
    var format: String?
    var version: Int?

    enum CodingKeys: String, CodingKey {
        case format, version
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try? container.decodeIfPresent(String.self, forKey: .format)
        version = try? container.decodeIfPresent(Int.self, forKey: .version)
    }
}

struct FenceFileDTO: Codable {
    var format: String
    var version: Int
    var app: String
    var groups: [FenceGroupDTO]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case format, version, app, groups
    }

    init(format: String, version: Int, app: String, groups: [FenceGroupDTO]) {
        self.format = format
        self.version = version
        self.app = app
        self.groups = groups
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decode(Int.self, forKey: .version)
        app = try container.decode(String.self, forKey: .app)
        groups = try container.decode([FenceGroupDTO].self, forKey: .groups)
    }
}

/// `{"kind": "regions" | "monitor", "name": (monitor only), "fences": […], "pending": […]}`.
struct FenceGroupDTO: Codable {
    var kind: String
    var name: String?
    var fences: [FenceRecordDTO]
    var pending: [FenceEventDTO]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, name, fences, pending
    }

    init(kind: String, name: String?, fences: [FenceRecordDTO], pending: [FenceEventDTO]) {
        self.kind = kind
        self.name = name
        self.fences = fences
        self.pending = pending
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        kind = try container.decode(String.self, forKey: .kind)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        fences = try container.decode([FenceRecordDTO].self, forKey: .fences)
        pending = try container.decode([FenceEventDTO].self, forKey: .pending)
    }
}

/// A fence's definition and its last event (whose identifier is the fence's, so not repeated).
struct FenceRecordDTO: Codable {
    var identifier: String
    var condition: FenceConditionDTO
    var notifyOnEntry: Bool
    var notifyOnExit: Bool
    var assumedState: String
    var lastEvent: FenceStateDTO

    enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, condition, notifyOnEntry, notifyOnExit, assumedState, lastEvent
    }

    init(
        identifier: String, condition: FenceConditionDTO, notifyOnEntry: Bool, notifyOnExit: Bool,
        assumedState: String, lastEvent: FenceStateDTO
    ) {
        self.identifier = identifier
        self.condition = condition
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.assumedState = assumedState
        self.lastEvent = lastEvent
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        condition = try container.decode(FenceConditionDTO.self, forKey: .condition)
        notifyOnEntry = try container.decode(Bool.self, forKey: .notifyOnEntry)
        notifyOnExit = try container.decode(Bool.self, forKey: .notifyOnExit)
        assumedState = try container.decode(String.self, forKey: .assumedState)
        lastEvent = try container.decode(FenceStateDTO.self, forKey: .lastEvent)
    }
}

/// `{"kind": "circle", "latitude", "longitude", "radius"}` or `{"kind": "beacon", "uuid", "major"?, "minor"?}`.
struct FenceConditionDTO: Codable {
    var kind: String
    var latitude: Double?
    var longitude: Double?
    var radius: Double?
    var uuid: String?
    /// Wider than the values' UInt16 so that one out of range is named as such rather than as bad JSON.
    var major: Int?
    var minor: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, latitude, longitude, radius, uuid, major, minor
    }

    init(
        kind: String, latitude: Double? = nil, longitude: Double? = nil, radius: Double? = nil,
        uuid: String? = nil, major: Int? = nil, minor: Int? = nil
    ) {
        self.kind = kind
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        kind = try container.decode(String.self, forKey: .kind)
        latitude = try container.decodeIfPresent(Double.self, forKey: .latitude)
        longitude = try container.decodeIfPresent(Double.self, forKey: .longitude)
        radius = try container.decodeIfPresent(Double.self, forKey: .radius)
        uuid = try container.decodeIfPresent(String.self, forKey: .uuid)
        major = try container.decodeIfPresent(Int.self, forKey: .major)
        minor = try container.decodeIfPresent(Int.self, forKey: .minor)
    }
}

/// A fence's last event: `{"state", "date" (seconds since 2001), "issue"?}`.
struct FenceStateDTO: Codable {
    var state: String
    var date: Double
    var issue: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case state, date, issue
    }

    init(state: String, date: Double, issue: String?) {
        self.state = state
        self.date = date
        self.issue = issue
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        state = try container.decode(String.self, forKey: .state)
        date = try container.decode(Double.self, forKey: .date)
        issue = try container.decodeIfPresent(String.self, forKey: .issue)
    }
}

/// A pending event: `{"identifier", "state", "date", "issue"?}`.
struct FenceEventDTO: Codable {
    var identifier: String
    var state: String
    var date: Double
    var issue: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, state, date, issue
    }

    init(identifier: String, state: String, date: Double, issue: String?) {
        self.identifier = identifier
        self.state = state
        self.date = date
        self.issue = issue
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        state = try container.decode(String.self, forKey: .state)
        date = try container.decode(Double.self, forKey: .date)
        issue = try container.decodeIfPresent(String.self, forKey: .issue)
    }
}
