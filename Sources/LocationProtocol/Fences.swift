import Foundation

/// One of an app's sets of fences: the regions every `CLLocationManager` of the app shares, or the
/// conditions of the `CLMonitor` with a given name. Each set is persisted by the service and
/// restored, with its states, when the app opens it again.
public enum FenceGroup: Sendable, Hashable, Comparable {
    /// `CLLocationManager.monitoredRegions`.
    case regions
    /// `CLMonitor(name)`.
    case monitor(String)
}

/// What a fence watches.
public enum FenceCondition: Sendable, Hashable {
    /// Inside a circle on the WGS 84 ellipsoid: centre in degrees, radius in metres.
    case circle(latitude: Double, longitude: Double, radius: Double)
    /// Near a beacon with this identity (nil major or minor: any).
    case beacon(uuid: UUID, major: UInt16?, minor: UInt16?)
}

/// Where the device is relative to a fence. The raw values are `CLRegionState`'s; `CLMonitor`
/// calls `inside` satisfied and `outside` unsatisfied.
public enum FenceState: UInt8, Sendable, Hashable, CaseIterable {
    case unknown = 0
    case inside = 1
    case outside = 2
    /// The fence is not watched (its condition is unsupported here, or over the app's limit).
    case unmonitored = 3
}

/// One fence as the app defined it.
public struct FenceDefinition: Sendable, Hashable {
    /// Unique within its group; adding a fence with an existing identifier replaces that fence.
    public var identifier: String
    public var condition: FenceCondition
    /// Whether entering is reported (`CLRegion.notifyOnEntry`; always true for `CLMonitor`).
    public var notifyOnEntry: Bool
    /// Whether leaving is reported (`CLRegion.notifyOnExit`; always true for `CLMonitor`).
    public var notifyOnExit: Bool
    /// The state the fence starts in (`CLMonitor.add(_:identifier:assuming:)`), `.unknown` by default.
    public var assumedState: FenceState

    public init(
        identifier: String, condition: FenceCondition, notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
        assumedState: FenceState = .unknown
    ) {
        self.identifier = identifier
        self.condition = condition
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.assumedState = assumedState
    }
}

/// Why a fence is not watched, or its events are held back; maps to `CLError.Code` for regions
/// and to `CLMonitor.Event`'s flags for monitors.
public enum FenceIssue: String, Sendable, Hashable, CaseIterable {
    /// The app is not authorized (or location services are off).
    case denied
    /// The app has reduced accuracy: fences need full accuracy.
    case accuracyLimited
    /// The app already watches as many fences as it may.
    case limitExceeded
    /// The radius is above the service's maximum (or not a positive number, or the centre is invalid).
    case invalidRegion
    /// This kind of condition cannot be watched on this device (no beacon source).
    case unsupported
    /// The fence could not be stored, so it would not survive a restart.
    case persistenceUnavailable
}

/// A fence's state at a moment: what `didDetermineState` and `CLMonitor.Event` report.
public struct FenceEvent: Sendable, Hashable {
    public var identifier: String
    public var state: FenceState
    public var date: Date
    /// Set when the state is not a measurement but the reason the fence is not watched.
    public var issue: FenceIssue?

    public init(identifier: String, state: FenceState, date: Date, issue: FenceIssue? = nil) {
        self.identifier = identifier
        self.state = state
        self.date = date
        self.issue = issue
    }
}

/// A fence and the last event it produced (`CLMonitor.Record`).
public struct FenceRecord: Sendable, Hashable {
    public var definition: FenceDefinition
    public var lastEvent: FenceEvent

    public init(definition: FenceDefinition, lastEvent: FenceEvent) {
        self.definition = definition
        self.lastEvent = lastEvent
    }
}

/// What the service tells a client about one of its fence groups.
public enum FenceUpdate: Sendable, Hashable {
    /// The answer to opening the group: every fence it holds now, with its last event.
    case snapshot([FenceRecord])
    /// A fence was added (or replaced) and is now watched (`didStartMonitoringFor`).
    case started(FenceRecord)
    /// A fence could not be watched. For regions it is dropped; a monitor keeps it, unmonitored.
    case failed(identifier: String, FenceIssue)
    /// A fence's state changed (an entry or exit), or its issue did. Each is delivered once:
    /// to every client with the group open, or, when none has, kept for the app's next launch.
    case changed(FenceEvent)
    /// The answer to ``ClientRequest/requestFenceState(_:identifier:)``: the state now.
    case determined(FenceEvent)
    /// A fence was removed (by any client of the app): every client with the group open forgets it.
    case removed(identifier: String)
}

/// One app's fences as the service holds them, for `locationctl regions`.
public struct AppFences: Sendable, Hashable {
    public var app: String
    public var groups: [GroupFences]

    public init(app: String, groups: [GroupFences]) {
        self.app = app
        self.groups = groups
    }
}

/// One fence group of an app: its fences and how many events wait for the app's next launch.
public struct GroupFences: Sendable, Hashable {
    public var group: FenceGroup
    public var records: [FenceRecord]
    public var pendingEvents: Int

    public init(group: FenceGroup, records: [FenceRecord], pendingEvents: Int) {
        self.group = group
        self.records = records
        self.pendingEvents = pendingEvents
    }
}
