import LocationBootstrap

/// Watches conditions — the device inside a circle — and reports each change of their state as an
/// event.
///
/// A monitor is known by its name: the location service keeps its conditions and their last
/// events across launches of the app (and restarts of the service), and a monitor created again
/// with the same name finds them. Events that occur while the app is not running wait for that
/// monitor (when the app is authorized Always); a state that did not change produces no event.
///
/// ```swift
/// let monitor = await CLMonitor("places")
/// await monitor.add(CLMonitor.CircularGeographicCondition(center: office, radius: 100), identifier: "office")
/// for try await event in monitor.events {
///     print(event.identifier, event.state == .satisfied ? "arrived" : "left")
/// }
/// ```
///
/// NOTE: circles are watched, and beacon conditions when a beacon source is configured; beacon
/// conditions without one (and condition types of the app's own) are kept with the state
/// `.unmonitored` and `conditionUnsupported` set.
public actor CLMonitor {
    /// The monitor's events (see ``Events``).
    public nonisolated let events: Events
    private let session: MonitorSession

    /// Opens the monitor with this name, with the conditions and last events it had.
    ///
    /// Returns when the location service has answered with them. If the service does not answer
    /// within a few seconds (it is not running), the monitor starts empty and takes the
    /// conditions when the service answers later.
    public init(_ name: String) async {
        let session = MonitorSession(name: name, system: LocationSystem.current)
        await session.open()
        self.session = session
        events = Events(session: session)
    }

    /// Starts watching a condition in the state `.unknown`; replaces the condition with the same
    /// identifier. Its first event comes when its state is known.
    public func add(_ condition: any CLCondition, identifier: String) {
        session.add(condition, identifier: identifier, assuming: .unknown)
    }

    /// Starts watching a condition assumed to be in `state`: the first event comes when the
    /// state differs. Replaces the condition with the same identifier.
    ///
    /// NOTE: assuming `.unmonitored` is taken as `.unknown`: a condition cannot be added unwatched.
    public func add(_ condition: any CLCondition, identifier: String, assuming state: CLMonitor.Event.State) {
        session.add(condition, identifier: identifier, assuming: state)
    }

    /// Stops watching the condition with this identifier and forgets it; nothing when there is none.
    public func remove(_ identifier: String) {
        session.remove(identifier)
    }

    /// The condition with this identifier and its last event; nil when there is none.
    public func record(for identifier: String) -> CLMonitor.Record? {
        session.record(for: identifier)
    }

    /// The identifiers of the monitor's conditions, in the order they were first added.
    public var identifiers: [String] { session.identifiers }
}
