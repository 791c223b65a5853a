import LocationProtocol

/// Everything the service keeps for one app's fences: per group, the fences in the order the app
/// added them (each with its last event), and the events produced while no client of the app had
/// the group open, to be delivered once, in order, at the app's next launch.
///
/// A group with neither fences nor pending events is not kept: ``subscript(_:)`` drops it when it
/// becomes empty, and ``FenceStore`` neither writes nor reads one.
public struct StoredFences: Sendable, Equatable {
    public struct Group: Sendable, Equatable {
        /// In insertion order; identifiers are unique within the group.
        public var records: [FenceRecord]
        /// Oldest first.
        public var pendingEvents: [FenceEvent]

        public init(records: [FenceRecord] = [], pendingEvents: [FenceEvent] = []) {
            self.records = records
            self.pendingEvents = pendingEvents
        }

        public var isEmpty: Bool { records.isEmpty && pendingEvents.isEmpty }

        /// The fence with this identifier.
        public func record(_ identifier: String) -> FenceRecord? {
            records.first { $0.definition.identifier == identifier }
        }
    }

    public var groups: [FenceGroup: Group]

    public init(groups: [FenceGroup: Group] = [:]) {
        self.groups = groups
    }

    /// No fence and no pending event in any group: nothing worth a file.
    public var isEmpty: Bool { groups.values.allSatisfy(\.isEmpty) }

    /// A group's fences and pending events (empty when there are none); setting an empty group removes it.
    public subscript(group: FenceGroup) -> Group {
        get { groups[group] ?? Group() }
        set { groups[group] = newValue.isEmpty ? nil : newValue }
    }
}
