import Foundation
import LocationProtocol

/// The JSON form of the control messages: the wire's own types, one field per value, each named
/// here, so the bytes on the socket change only when this file does (and ``WireProtocol/version``
/// with it) — never because a shared value gained a property.
///
/// Every message is one object with a `type` and the fields of that type; absent optional fields
/// are left out. Decoding checks that each field a type needs is present and that every enumerated
/// value is one this version knows.
enum WireJSON {
    /// The bytes of an envelope. Sorted keys, because Foundation's JSONEncoder otherwise writes an
    /// object's keys in an order that changes from one encoding to the next, and one message must
    /// always be the same bytes.
    static func encode(_ envelope: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(envelope)
    }

    // MARK: Envelopes

    struct ClientEnvelope: Codable, Equatable {
        var type: String
        var version: Int?
        var level: String?
        var stream: StreamID?
        var update: Update?
        var change: Settings?
        var id: UInt64?
        var answer: Answer?
        var group: Group?
        var fence: Fence?
        var identifier: String?
        var purposeKey: String?
        var headingFilter: Double?
        var beaconConstraint: Constraint?
    }

    struct DaemonEnvelope: Codable, Equatable {
        var type: String
        var identity: Identity?
        var authorization: Authorization?
        var reason: String?
        var inProgress: Bool?
        var stream: StreamID?
        var failure: String?
        var stationary: Bool?
        var error: String?
        var database: Database?
        var id: UInt64?
        var prompt: Prompt?
        var group: Group?
        var fenceUpdate: FenceUpdate?
        var fenceListing: [AppFences]?
        var outcome: String?
        var visit: VisitValue?
        var heading: Heading?
        var beacons: [Beacon]?
        /// The welcome's `ServiceCapabilities`, by name. A welcome without it comes from a daemon that did
        /// not say: its apps assume every kind of source, as before the field existed.
        var capabilities: [String]?
    }

    // MARK: Values

    struct Update: Codable, Equatable {
        var mode: String
        var desiredAccuracy: Double
        var distanceFilter: Double
        var activity: Int
        var pausesAutomatically: Bool
    }

    struct VisitValue: Codable, Equatable {
        /// Seconds since 2001-01-01 UTC; absent when unknown.
        var arrival: Double?
        var departure: Double?
        var latitude: Double
        var longitude: Double
        var horizontalAccuracy: Double
    }

    struct Heading: Codable, Equatable {
        var magneticHeading: Double
        var trueHeading: Double?
        var headingAccuracy: Double
        var x: Double?
        var y: Double?
        var z: Double?
        /// Seconds since 2001-01-01 UTC.
        var timestamp: Double
    }

    struct Authorization: Codable, Equatable {
        var status: Int32
        var accuracy: Int
        var servicesEnabled: Bool
    }

    struct Identity: Codable, Equatable {
        var id: String
        var displayName: String
        var executablePath: String
    }

    struct Settings: Codable, Equatable {
        var kind: String
        var app: String?
        var always: Bool?
        var approximate: Bool?
        var enabled: Bool?
    }

    struct Answer: Codable, Equatable {
        var kind: String
        var precise: Bool?
    }

    struct Prompt: Codable, Equatable {
        var app: Identity
        var kind: String
        var level: String
        var usageDescription: String
        var preciseByDefault: Bool
        /// Only for the kind `temporaryFullAccuracy`.
        var purposeKey: String?
    }

    struct Process: Codable, Equatable {
        var pid: Int32
        var startTime: UInt64
    }

    struct TemporaryAccuracy: Codable, Equatable {
        var purposeKey: String
        /// The process the grant lasts as long as.
        var process: Process
    }

    struct Record: Codable, Equatable {
        var app: String
        var status: Int32
        var accuracy: Int
        var alwaysRequestUsed: Bool
        var allowOnce: Process?
        var temporaryFullAccuracy: TemporaryAccuracy?
        var displayName: String
        var executablePath: String
        /// Seconds since 2001-01-01 UTC.
        var updated: Double
    }

    struct Database: Codable, Equatable {
        var servicesEnabled: Bool
        /// Sorted by app id, so the same database always encodes to the same bytes.
        var apps: [Record]
    }
}

/// A message, or a value inside one, that this version cannot accept.
struct WireJSONError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    static func missing(_ field: String, in type: String) -> WireJSONError {
        WireJSONError("\(type) without \(field)")
    }

    static func unknown(_ what: String, _ value: some CustomStringConvertible) -> WireJSONError {
        WireJSONError("unknown \(what) \(value)")
    }
}

/// Unwraps a required field (for every message and value of the JSON form).
func required<Value>(_ value: Value?, _ field: String, in type: String) throws -> Value {
    guard let value else { throw WireJSONError.missing(field, in: type) }
    return value
}

// MARK: - Client messages

extension WireJSON.ClientEnvelope {
    init(_ message: ClientMessage) {
        switch message {
        case .hello(let version):
            self.init(type: "hello", version: version)
        case .request(.requestAuthorization(let level)):
            self.init(type: "requestAuthorization", level: level.wireName)
        case let .request(.startUpdates(stream, update)):
            self.init(type: "startUpdates", stream: stream, update: .init(update))
        case let .request(.changeUpdates(stream, update)):
            self.init(type: "changeUpdates", stream: stream, update: .init(update))
        case .request(.resumeUpdates(let stream)):
            self.init(type: "resumeUpdates", stream: stream)
        case .request(.stopUpdates(let stream)):
            self.init(type: "stopUpdates", stream: stream)
        case .settings(let change):
            self.init(type: "settings", change: .init(change))
        case .listApps:
            self.init(type: "listApps")
        case .registerAgent:
            self.init(type: "registerAgent")
        case let .agentAnswer(id, answer):
            self.init(type: "agentAnswer", id: id, answer: answer.map(WireJSON.Answer.init))
        case .request(.openFences(let group)):
            self.init(type: "openFences", group: .init(group))
        case .request(.closeFences(let group)):
            self.init(type: "closeFences", group: .init(group))
        case let .request(.addFence(group, fence)):
            self.init(type: "addFence", group: .init(group), fence: .init(fence))
        case let .request(.removeFence(group, identifier)):
            self.init(type: "removeFence", group: .init(group), identifier: identifier)
        case let .request(.requestFenceState(group, identifier)):
            self.init(type: "requestFenceState", group: .init(group), identifier: identifier)
        case .listFences:
            self.init(type: "listFences")
        case let .request(.requestTemporaryFullAccuracy(request, purposeKey)):
            self.init(type: "requestTemporaryFullAccuracy", id: UInt64(request), purposeKey: purposeKey)
        case .request(.endTemporaryFullAccuracy):
            self.init(type: "endTemporaryFullAccuracy")
        case .request(.startVisits):
            self.init(type: "startVisits")
        case .request(.stopVisits):
            self.init(type: "stopVisits")
        case let .request(.startHeading(stream, request)):
            self.init(type: "startHeading", stream: stream, headingFilter: request.filter)
        case .request(.stopHeading(let stream)):
            self.init(type: "stopHeading", stream: stream)
        case let .request(.startRanging(stream, constraint)):
            self.init(type: "startRanging", stream: stream, beaconConstraint: .init(constraint))
        case .request(.stopRanging(let stream)):
            self.init(type: "stopRanging", stream: stream)
        }
    }

    func message() throws -> ClientMessage {
        switch type {
        case "hello":
            return .hello(version: try required(version, "version", in: type))
        case "requestAuthorization":
            return .request(.requestAuthorization(try AuthorizationLevel(wireName: required(level, "level", in: type))))
        case "startUpdates":
            return .request(.startUpdates(try required(stream, "stream", in: type),
                                          try required(update, "update", in: type).value()))
        case "changeUpdates":
            return .request(.changeUpdates(try required(stream, "stream", in: type),
                                           try required(update, "update", in: type).value()))
        case "resumeUpdates":
            return .request(.resumeUpdates(try required(stream, "stream", in: type)))
        case "stopUpdates":
            return .request(.stopUpdates(try required(stream, "stream", in: type)))
        case "settings":
            return .settings(try required(change, "change", in: type).value())
        case "listApps":
            return .listApps
        case "registerAgent":
            return .registerAgent
        case "agentAnswer":
            return .agentAnswer(id: try required(id, "id", in: type), try answer?.value())
        case "openFences":
            return .request(.openFences(try required(group, "group", in: type).value()))
        case "closeFences":
            return .request(.closeFences(try required(group, "group", in: type).value()))
        case "addFence":
            return .request(.addFence(try required(group, "group", in: type).value(),
                                      try required(fence, "fence", in: type).value()))
        case "removeFence":
            return .request(.removeFence(try required(group, "group", in: type).value(),
                                         identifier: try required(identifier, "identifier", in: type)))
        case "requestFenceState":
            return .request(.requestFenceState(try required(group, "group", in: type).value(),
                                               identifier: try required(identifier, "identifier", in: type)))
        case "listFences":
            return .listFences
        case "requestTemporaryFullAccuracy":
            let id = try required(id, "id", in: type)
            guard let request = AccuracyRequestID(exactly: id) else { throw WireJSONError.unknown("accuracy request id", id) }
            return .request(.requestTemporaryFullAccuracy(request, purposeKey: try required(purposeKey, "purposeKey", in: type)))
        case "endTemporaryFullAccuracy":
            return .request(.endTemporaryFullAccuracy)
        case "startVisits":
            return .request(.startVisits)
        case "stopVisits":
            return .request(.stopVisits)
        case "startHeading":
            let filter = try required(headingFilter, "headingFilter", in: type)
            guard filter.isFinite else { throw WireJSONError.unknown("heading filter", filter) }
            return .request(.startHeading(try required(stream, "stream", in: type), HeadingRequest(filter: filter)))
        case "stopHeading":
            return .request(.stopHeading(try required(stream, "stream", in: type)))
        case "startRanging":
            return .request(.startRanging(try required(stream, "stream", in: type),
                                          try required(beaconConstraint, "beaconConstraint", in: type).value()))
        case "stopRanging":
            return .request(.stopRanging(try required(stream, "stream", in: type)))
        default:
            throw WireJSONError.unknown("client message type", type)
        }
    }

}

// MARK: - Daemon messages

extension WireJSON.DaemonEnvelope {
    /// Nil for location events, which travel as binary frames only.
    init?(_ message: DaemonMessage) {
        switch message {
        case let .welcome(identity, authorization, capabilities):
            self.init(type: "welcome", identity: .init(identity), authorization: .init(authorization),
                      capabilities: WireJSON.capabilityNames(capabilities))
        case .refused(let reason):
            self.init(type: "refused", reason: reason)
        case .event(.authorizationChanged(let authorization)):
            self.init(type: "authorizationChanged", authorization: .init(authorization))
        case .event(.authorizationRequestInProgress(let inProgress)):
            self.init(type: "authorizationRequestInProgress", inProgress: inProgress)
        case let .event(.stream(stream, event)):
            switch event {
            case .locations: return nil
            case .failed(let failure): self.init(type: "failed", stream: stream, failure: failure.rawValue)
            case .paused: self.init(type: "paused", stream: stream)
            case .stationary(let still): self.init(type: "stationary", stream: stream, stationary: still)
            case .completed: self.init(type: "completed", stream: stream)
            case .sourceFinished: self.init(type: "sourceFinished", stream: stream)
            case .visit(let visit): self.init(type: "visit", stream: stream, visit: .init(visit))
            case .heading(let sample): self.init(type: "heading", stream: stream, heading: .init(sample))
            case .beacons(let beacons): self.init(type: "beacons", stream: stream, beacons: beacons.map(WireJSON.Beacon.init))
            }
        case .settingsResult(let error):
            self.init(type: "settingsResult", error: error?.message)
        case .apps(let database):
            self.init(type: "apps", database: .init(database))
        case .appsUnavailable(let error):
            self.init(type: "appsUnavailable", error: error.message)
        case let .agentPrompt(id, prompt):
            self.init(type: "agentPrompt", id: id, prompt: .init(prompt))
        case .agentPromptWithdrawn(let id):
            self.init(type: "agentPromptWithdrawn", id: id)
        case let .event(.fences(group, update)):
            self.init(type: "fences", group: .init(group), fenceUpdate: .init(update))
        case .fences(let listing):
            self.init(type: "fenceListing", fenceListing: listing.map(WireJSON.AppFences.init))
        case let .event(.temporaryFullAccuracy(request, outcome)):
            self.init(type: "temporaryFullAccuracy", id: UInt64(request), outcome: outcome.rawValue)
        case .event(.visit(let visit)):
            self.init(type: "visit", visit: .init(visit))
        }
    }

    func message() throws -> DaemonMessage {
        switch type {
        case "welcome":
            return .welcome(identity: try required(identity, "identity", in: type).value,
                            authorization: try required(authorization, "authorization", in: type).value(),
                            capabilities: capabilities.map(WireJSON.capabilities(named:)) ?? .all)
        case "refused":
            return .refused(try required(reason, "reason", in: type))
        case "authorizationChanged":
            return .event(.authorizationChanged(try required(authorization, "authorization", in: type).value()))
        case "authorizationRequestInProgress":
            return .event(.authorizationRequestInProgress(try required(inProgress, "inProgress", in: type)))
        case "failed":
            let name = try required(failure, "failure", in: type)
            guard let failure = StreamFailure(rawValue: name) else { throw WireJSONError.unknown("failure", name) }
            return try streamEvent(.failed(failure))
        case "paused":
            return try streamEvent(.paused)
        case "stationary":
            return try streamEvent(.stationary(required(stationary, "stationary", in: type)))
        case "completed":
            return try streamEvent(.completed)
        case "sourceFinished":
            return try streamEvent(.sourceFinished)
        case "visit":
            // The app's visits carry no stream; a stream's (the engine's own form) does.
            let visit = try required(visit, "visit", in: type).value()
            return stream == nil ? .event(.visit(visit)) : try streamEvent(.visit(visit))
        case "heading":
            return try streamEvent(.heading(required(heading, "heading", in: type).value()))
        case "beacons":
            return try streamEvent(.beacons(required(beacons, "beacons", in: type).map { try $0.value() }))
        case "settingsResult":
            return .settingsResult(error.map(SettingsChangeError.init))
        case "apps":
            return .apps(try required(database, "database", in: type).value())
        case "appsUnavailable":
            return .appsUnavailable(SettingsChangeError(try required(error, "error", in: type)))
        case "agentPrompt":
            return .agentPrompt(id: try required(id, "id", in: type), try required(prompt, "prompt", in: type).value())
        case "agentPromptWithdrawn":
            return .agentPromptWithdrawn(id: try required(id, "id", in: type))
        case "fences":
            return .event(.fences(try required(group, "group", in: type).value(),
                                  try required(fenceUpdate, "fenceUpdate", in: type).value()))
        case "fenceListing":
            return .fences(try required(fenceListing, "fenceListing", in: type).map { try $0.value() })
        case "temporaryFullAccuracy":
            let id = try required(id, "id", in: type)
            guard let request = AccuracyRequestID(exactly: id) else { throw WireJSONError.unknown("accuracy request id", id) }
            let name = try required(outcome, "outcome", in: type)
            guard let outcome = TemporaryFullAccuracyOutcome(rawValue: name) else {
                throw WireJSONError.unknown("temporary full accuracy outcome", name)
            }
            return .event(.temporaryFullAccuracy(request, outcome))
        default:
            throw WireJSONError.unknown("daemon message type", type)
        }
    }

    private func streamEvent(_ event: StreamEvent) throws -> DaemonMessage {
        .event(.stream(try required(stream, "stream", in: type), event))
    }

}

// MARK: - Values

extension WireJSON.VisitValue {
    init(_ visit: Visit) {
        arrival = visit.arrival?.timeIntervalSinceReferenceDate
        departure = visit.departure?.timeIntervalSinceReferenceDate
        latitude = visit.latitude
        longitude = visit.longitude
        horizontalAccuracy = visit.horizontalAccuracy
    }

    func value() throws -> Visit {
        let times = [arrival, departure].compactMap { $0 }
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              horizontalAccuracy.isFinite, times.allSatisfy(\.isFinite) else {
            throw WireJSONError("visit with a value out of range")
        }
        return Visit(arrival: arrival.map(Date.init(timeIntervalSinceReferenceDate:)),
                     departure: departure.map(Date.init(timeIntervalSinceReferenceDate:)),
                     latitude: latitude, longitude: longitude, horizontalAccuracy: horizontalAccuracy)
    }
}

extension WireJSON.Update {
    init(_ request: UpdateRequest) {
        mode = request.mode.wireName
        desiredAccuracy = request.desiredAccuracy
        distanceFilter = request.distanceFilter
        activity = request.activity.rawValue
        pausesAutomatically = request.pausesAutomatically
    }

    func value() throws -> UpdateRequest {
        guard let activity = UpdateRequest.Activity(rawValue: activity) else { throw WireJSONError.unknown("activity", activity) }
        return UpdateRequest(
            mode: try UpdateRequest.Mode(wireName: mode), desiredAccuracy: desiredAccuracy,
            distanceFilter: distanceFilter, activity: activity, pausesAutomatically: pausesAutomatically)
    }
}

extension WireJSON.Heading {
    /// JSON has no NaN or infinity (the encoder would throw): a sensor's non-finite value is sent as
    /// unknown — a raw component left out, a heading marked invalid.
    init(_ sample: HeadingSample) {
        let valid = sample.magneticHeading.isFinite && sample.magneticHeading >= 0 && sample.magneticHeading < 360
        magneticHeading = valid ? sample.magneticHeading : 0
        trueHeading = sample.trueHeading.flatMap { $0.isFinite && $0 >= 0 && $0 < 360 ? $0 : nil }
        headingAccuracy = valid && sample.headingAccuracy.isFinite ? sample.headingAccuracy : -1
        x = sample.x.flatMap { $0.isFinite ? $0 : nil }
        y = sample.y.flatMap { $0.isFinite ? $0 : nil }
        z = sample.z.flatMap { $0.isFinite ? $0 : nil }
        let seconds = sample.timestamp.timeIntervalSinceReferenceDate
        timestamp = seconds.isFinite ? seconds : 0
    }

    /// Angles must be finite and within a turn, so a daemon's bad value never reaches an app as a heading.
    func value() throws -> HeadingSample {
        for angle in [magneticHeading, trueHeading ?? 0] where !(angle.isFinite && angle >= 0 && angle < 360) {
            throw WireJSONError.unknown("heading", angle)
        }
        guard headingAccuracy.isFinite, timestamp.isFinite else { throw WireJSONError.unknown("heading accuracy or time", headingAccuracy) }
        return HeadingSample(
            magneticHeading: magneticHeading, trueHeading: trueHeading, headingAccuracy: headingAccuracy,
            x: x, y: y, z: z, timestamp: Date(timeIntervalSinceReferenceDate: timestamp))
    }
}

extension WireJSON.Authorization {
    init(_ authorization: EffectiveAuthorization) {
        status = authorization.status.rawValue
        accuracy = authorization.accuracy.rawValue
        servicesEnabled = authorization.servicesEnabled
    }

    func value() throws -> EffectiveAuthorization {
        EffectiveAuthorization(status: try .init(wire: status), accuracy: try .init(wire: accuracy), servicesEnabled: servicesEnabled)
    }
}

extension WireJSON.Identity {
    init(_ identity: AppIdentity) {
        id = identity.id
        displayName = identity.displayName
        executablePath = identity.executablePath
    }

    var value: AppIdentity { AppIdentity(id: id, displayName: displayName, executablePath: executablePath) }
}

extension WireJSON.Settings {
    init(_ change: SettingsChange) {
        switch change {
        case let .grant(app, always, approximate):
            self.init(kind: "grant", app: app, always: always, approximate: approximate)
        case .revoke(let app): self.init(kind: "revoke", app: app)
        case .reset(let app): self.init(kind: "reset", app: app)
        case .resetAll: self.init(kind: "resetAll")
        case .services(let enabled): self.init(kind: "services", enabled: enabled)
        }
    }

    func value() throws -> SettingsChange {
        let type = "settings \(kind)"
        switch kind {
        case "grant":
            return .grant(app: try required(app, "app", in: type), always: try required(always, "always", in: type),
                          approximate: try required(approximate, "approximate", in: type))
        case "revoke": return .revoke(app: try required(app, "app", in: type))
        case "reset": return .reset(app: try required(app, "app", in: type))
        case "resetAll": return .resetAll
        case "services": return .services(enabled: try required(enabled, "enabled", in: type))
        default: throw WireJSONError.unknown("settings change", kind)
        }
    }

}

extension WireJSON.Answer {
    init(_ answer: PromptAnswer) {
        switch answer {
        case .allowOnce(let precise): self.init(kind: "allowOnce", precise: precise)
        case .allowWhileUsing(let precise): self.init(kind: "allowWhileUsing", precise: precise)
        case .dontAllow: self.init(kind: "dontAllow", precise: nil)
        case .changeToAlways: self.init(kind: "changeToAlways", precise: nil)
        case .keepWhileUsing: self.init(kind: "keepWhileUsing", precise: nil)
        case .allowTemporaryFullAccuracy: self.init(kind: "allowTemporaryFullAccuracy", precise: nil)
        case .denyTemporaryFullAccuracy: self.init(kind: "denyTemporaryFullAccuracy", precise: nil)
        }
    }

    func value() throws -> PromptAnswer {
        switch kind {
        case "allowOnce": .allowOnce(precise: try required(precise, "precise", in: "answer allowOnce"))
        case "allowWhileUsing": .allowWhileUsing(precise: try required(precise, "precise", in: "answer allowWhileUsing"))
        case "dontAllow": .dontAllow
        case "changeToAlways": .changeToAlways
        case "keepWhileUsing": .keepWhileUsing
        case "allowTemporaryFullAccuracy": .allowTemporaryFullAccuracy
        case "denyTemporaryFullAccuracy": .denyTemporaryFullAccuracy
        default: throw WireJSONError.unknown("answer", kind)
        }
    }
}

extension WireJSON.Prompt {
    init(_ prompt: PromptRequest) {
        app = .init(prompt.app)
        switch prompt.kind {
        case .initial: kind = "initial"
        case .upgradeToAlways: kind = "upgradeToAlways"
        case .temporaryFullAccuracy(let key):
            kind = "temporaryFullAccuracy"
            purposeKey = key
        }
        level = prompt.level.wireName
        usageDescription = prompt.usageDescription
        preciseByDefault = prompt.preciseByDefault
    }

    func value() throws -> PromptRequest {
        let kind: PromptRequest.Kind = switch self.kind {
        case "initial": .initial
        case "upgradeToAlways": .upgradeToAlways
        case "temporaryFullAccuracy": .temporaryFullAccuracy(purposeKey: try required(purposeKey, "purposeKey", in: "prompt temporaryFullAccuracy"))
        default: throw WireJSONError.unknown("prompt kind", self.kind)
        }
        return PromptRequest(
            app: app.value, kind: kind, level: try AuthorizationLevel(wireName: level),
            usageDescription: usageDescription, preciseByDefault: preciseByDefault)
    }
}

extension WireJSON.Database {
    init(_ database: AuthorizationDatabase) {
        servicesEnabled = database.servicesEnabled
        apps = database.apps.sorted { $0.key < $1.key }.map { app, record in
            WireJSON.Record(
                app: app, status: record.status.rawValue, accuracy: record.accuracy.rawValue,
                alwaysRequestUsed: record.alwaysRequestUsed,
                allowOnce: record.allowOnce.map { WireJSON.Process(pid: $0.pid, startTime: $0.startTime) },
                temporaryFullAccuracy: record.temporaryFullAccuracy.map {
                    WireJSON.TemporaryAccuracy(
                        purposeKey: $0.purposeKey, process: WireJSON.Process(pid: $0.process.pid, startTime: $0.process.startTime))
                },
                displayName: record.displayName, executablePath: record.executablePath,
                updated: record.updated.timeIntervalSinceReferenceDate)
        }
    }

    func value() throws -> AuthorizationDatabase {
        var database = AuthorizationDatabase(servicesEnabled: servicesEnabled)
        for record in apps {
            database.apps[record.app] = AppRecord(
                status: try .init(wire: record.status), accuracy: try .init(wire: record.accuracy),
                alwaysRequestUsed: record.alwaysRequestUsed,
                allowOnce: record.allowOnce.map { ProcessStamp(pid: $0.pid, startTime: $0.startTime) },
                temporaryFullAccuracy: record.temporaryFullAccuracy.map {
                    TemporaryFullAccuracy(
                        purposeKey: $0.purposeKey, process: ProcessStamp(pid: $0.process.pid, startTime: $0.process.startTime))
                },
                displayName: record.displayName, executablePath: record.executablePath,
                updated: Date(timeIntervalSinceReferenceDate: record.updated))
        }
        return database
    }
}

// MARK: - Enumerations by name or raw value

extension AuthorizationLevel {
    var wireName: String {
        switch self {
        case .whenInUse: "whenInUse"
        case .always: "always"
        }
    }

    init(wireName: String) throws {
        switch wireName {
        case "whenInUse": self = .whenInUse
        case "always": self = .always
        default: throw WireJSONError.unknown("authorization level", wireName)
        }
    }
}

extension UpdateRequest.Mode {
    var wireName: String {
        switch self {
        case .continuous: "continuous"
        case .single: "single"
        case .live: "live"
        case .significantChange: "significantChange"
        case .visits: "visits"
        }
    }

    init(wireName: String) throws {
        switch wireName {
        case "continuous": self = .continuous
        case "single": self = .single
        case "live": self = .live
        case "significantChange": self = .significantChange
        case "visits": self = .visits
        default: throw WireJSONError.unknown("update mode", wireName)
        }
    }
}

extension AuthorizationStatus {
    init(wire value: Int32) throws {
        guard let status = AuthorizationStatus(rawValue: value) else { throw WireJSONError.unknown("authorization status", value) }
        self = status
    }
}

extension AccuracyAuthorization {
    init(wire value: Int) throws {
        guard let accuracy = AccuracyAuthorization(rawValue: value) else { throw WireJSONError.unknown("accuracy", value) }
        self = accuracy
    }
}
