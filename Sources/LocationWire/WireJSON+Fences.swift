import Foundation
import LocationProtocol

// The JSON form of fence groups, definitions, events and updates (see `WireJSON`).

extension WireJSON {
    struct Group: Codable, Equatable {
        /// `regions` or `monitor`.
        var kind: String
        var name: String?
    }

    struct Condition: Codable, Equatable {
        /// `circle` or `beacon`.
        var kind: String
        var latitude: Double?
        var longitude: Double?
        var radius: Double?
        var uuid: String?
        var major: UInt16?
        var minor: UInt16?
    }

    struct Fence: Codable, Equatable {
        var identifier: String
        var condition: Condition
        var notifyOnEntry: Bool
        var notifyOnExit: Bool
        var assumedState: UInt8
    }

    struct Event: Codable, Equatable {
        var identifier: String
        var state: UInt8
        /// Seconds since 2001-01-01 UTC.
        var date: Double
        var issue: String?
    }

    struct FenceEntry: Codable, Equatable {
        var fence: Fence
        var lastEvent: Event
    }

    struct FenceUpdate: Codable, Equatable {
        /// `snapshot`, `started`, `failed`, `changed`, `determined` or `removed`.
        var kind: String
        var records: [FenceEntry]?
        var record: FenceEntry?
        var identifier: String?
        var issue: String?
        var event: Event?
    }

    struct GroupListing: Codable, Equatable {
        var group: Group
        var records: [FenceEntry]
        var pendingEvents: Int
    }

    struct AppFences: Codable, Equatable {
        var app: String
        var groups: [GroupListing]
    }
}

extension WireJSON.Group {
    init(_ group: FenceGroup) {
        switch group {
        case .regions: self.init(kind: "regions")
        case .monitor(let name): self.init(kind: "monitor", name: name)
        }
    }

    func value() throws -> FenceGroup {
        switch kind {
        case "regions": return .regions
        case "monitor": return .monitor(try required(name, "name", in: "group monitor"))
        default: throw WireJSONError.unknown("fence group", kind)
        }
    }
}

extension WireJSON.Condition {
    init(_ condition: FenceCondition) {
        switch condition {
        case let .circle(latitude, longitude, radius):
            self.init(kind: "circle", latitude: latitude, longitude: longitude, radius: radius)
        case let .beacon(uuid, major, minor):
            self.init(kind: "beacon", uuid: uuid.uuidString, major: major, minor: minor)
        }
    }

    func value() throws -> FenceCondition {
        let type = "condition \(kind)"
        switch kind {
        case "circle":
            return .circle(latitude: try required(latitude, "latitude", in: type),
                           longitude: try required(longitude, "longitude", in: type),
                           radius: try required(radius, "radius", in: type))
        case "beacon":
            let text = try required(uuid, "uuid", in: type)
            guard let uuid = UUID(uuidString: text) else { throw WireJSONError.unknown("beacon UUID", text) }
            return .beacon(uuid: uuid, major: major, minor: minor)
        default:
            throw WireJSONError.unknown("fence condition", kind)
        }
    }
}

extension WireJSON.Fence {
    init(_ fence: FenceDefinition) {
        self.init(identifier: fence.identifier, condition: .init(fence.condition), notifyOnEntry: fence.notifyOnEntry,
                  notifyOnExit: fence.notifyOnExit, assumedState: fence.assumedState.rawValue)
    }

    func value() throws -> FenceDefinition {
        FenceDefinition(identifier: identifier, condition: try condition.value(), notifyOnEntry: notifyOnEntry,
                        notifyOnExit: notifyOnExit, assumedState: try FenceState(wire: assumedState))
    }
}

extension WireJSON.Event {
    init(_ event: FenceEvent) {
        self.init(identifier: event.identifier, state: event.state.rawValue,
                  date: event.date.timeIntervalSinceReferenceDate, issue: event.issue?.rawValue)
    }

    func value() throws -> FenceEvent {
        FenceEvent(identifier: identifier, state: try FenceState(wire: state),
                   date: Date(timeIntervalSinceReferenceDate: date), issue: try issue.map(FenceIssue.init(wire:)))
    }
}

extension WireJSON.FenceEntry {
    init(_ record: FenceRecord) {
        self.init(fence: .init(record.definition), lastEvent: .init(record.lastEvent))
    }

    func value() throws -> FenceRecord {
        FenceRecord(definition: try fence.value(), lastEvent: try lastEvent.value())
    }
}

extension WireJSON.FenceUpdate {
    init(_ update: LocationProtocol.FenceUpdate) {
        switch update {
        case .snapshot(let records):
            self.init(kind: "snapshot", records: records.map(WireJSON.FenceEntry.init))
        case .started(let record):
            self.init(kind: "started", record: .init(record))
        case let .failed(identifier, issue):
            self.init(kind: "failed", identifier: identifier, issue: issue.rawValue)
        case .changed(let event):
            self.init(kind: "changed", event: .init(event))
        case .determined(let event):
            self.init(kind: "determined", event: .init(event))
        case .removed(let identifier):
            self.init(kind: "removed", identifier: identifier)
        }
    }

    func value() throws -> LocationProtocol.FenceUpdate {
        let type = "fence update \(kind)"
        switch kind {
        case "snapshot":
            return .snapshot(try required(records, "records", in: type).map { try $0.value() })
        case "started":
            return .started(try required(record, "record", in: type).value())
        case "failed":
            return .failed(identifier: try required(identifier, "identifier", in: type),
                           try FenceIssue(wire: required(issue, "issue", in: type)))
        case "changed":
            return .changed(try required(event, "event", in: type).value())
        case "determined":
            return .determined(try required(event, "event", in: type).value())
        case "removed":
            return .removed(identifier: try required(identifier, "identifier", in: type))
        default:
            throw WireJSONError.unknown("fence update", kind)
        }
    }
}

extension WireJSON.AppFences {
    init(_ fences: LocationProtocol.AppFences) {
        self.init(app: fences.app, groups: fences.groups.map {
            WireJSON.GroupListing(group: .init($0.group), records: $0.records.map(WireJSON.FenceEntry.init),
                                  pendingEvents: $0.pendingEvents)
        })
    }

    func value() throws -> LocationProtocol.AppFences {
        LocationProtocol.AppFences(app: app, groups: try groups.map {
            GroupFences(group: try $0.group.value(), records: try $0.records.map { try $0.value() },
                        pendingEvents: $0.pendingEvents)
        })
    }
}

extension FenceState {
    init(wire value: UInt8) throws {
        guard let state = FenceState(rawValue: value) else { throw WireJSONError.unknown("fence state", value) }
        self = state
    }
}

extension FenceIssue {
    init(wire name: String) throws {
        guard let issue = FenceIssue(rawValue: name) else { throw WireJSONError.unknown("fence issue", name) }
        self = issue
    }
}
