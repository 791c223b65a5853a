import Foundation
import LocationCore
import LocationDBus
import Logging

/// A system service a source follows over D-Bus while the source runs: the connection, the match
/// rules, the service's owner coming and going, and reconnection when the bus itself goes away.
///
/// Everything it reports runs on the engine loop, for the current run only (a stopped or restarted
/// source hears nothing of an earlier run):
/// - `appeared(connection)`: the service has an owner, at connection or when it (re)starts;
/// - `vanished(reason)`: it has none, or the bus cannot be reached; said once per outage;
/// - `signal(signal)`: a signal the match rules select.
///
/// The bus going away (or never answering) is retried with `backoff`; the service going away needs no
/// retry: the bus says when its name has an owner again (`NameOwnerChanged`).
final class DBusServiceLink: Sendable {
    struct Handlers: Sendable {
        var appeared: @Sendable (DBusConnection) -> Void
        var vanished: @Sendable (String) -> Void
        var signal: @Sendable (DBusSignal) -> Void
    }

    let bus: DBusBus
    let service: String
    let matches: [DBusMatchRule]
    let label: String

    private struct State {
        var running = false
        var generation: UInt64 = 0
        var connection: DBusConnection?
        var backoff: Backoff
        var retry: ScheduledWork?
        var owner: String?
        var down = false
        var handlers: Handlers?
    }

    private let state: Locked<State>

    init(bus: DBusBus, service: String, matches: [DBusMatchRule], label: String, backoff: Backoff) {
        self.bus = bus
        self.service = service
        self.matches = matches
        self.label = label
        state = Locked(State(backoff: backoff))
    }

    /// The connection of the current run while it is connected.
    var connection: DBusConnection? { state.withLock { $0.running ? $0.connection : nil } }

    func start(on loop: any EngineLoop, handlers: Handlers) {
        let generation: UInt64? = state.withLock { state in
            guard !state.running else { return nil }
            state.running = true
            state.generation &+= 1
            state.down = false
            state.owner = nil
            state.handlers = handlers
            return state.generation
        }
        guard let generation else { return }
        // A connection reports `.connected` from its own thread as soon as the bus accepts it, and
        // `handle` (inside the loop) drops an event that comes before the connection is stored. Made
        // inside the loop, the connection is stored before any of its events can be handled.
        if loop.inLoop {
            connect(generation: generation, on: loop, handlers: handlers)
        } else {
            loop.execute { [weak self] in self?.connect(generation: generation, on: loop, handlers: handlers) }
        }
    }

    /// Stops following the service; `farewell` may queue last calls on the connection (they are sent
    /// before it closes).
    func stop(farewell: ((DBusConnection) -> Void)? = nil) {
        let stopped: (DBusConnection?, ScheduledWork?, Bool)? = state.withLock { state in
            guard state.running else { return nil }
            state.running = false
            state.generation &+= 1
            defer { state.connection = nil; state.retry = nil; state.owner = nil; state.handlers = nil }
            return (state.connection, state.retry, state.owner != nil)
        }
        guard let stopped else { return }
        stopped.1?.cancel()
        if let connection = stopped.0 {
            if stopped.2 { farewell?(connection) }
            connection.close()
        }
    }

    private func isCurrent(_ generation: UInt64) -> Bool {
        state.withLock { $0.running && $0.generation == generation }
    }

    /// Connects for `generation`; runs inside the loop (see `start`).
    private func connect(generation: UInt64, on loop: any EngineLoop, handlers: Handlers) {
        guard isCurrent(generation) else { return }
        let connection = DBusConnection(bus: bus, label: label) { [weak self] event in
            loop.execute { [weak self] in self?.handle(event, generation: generation, on: loop, handlers: handlers) }
        }
        let current = state.withLock { state -> Bool in
            guard state.running, state.generation == generation else { return false }
            state.connection = connection
            return true
        }
        if !current { connection.close() }
    }

    private func handle(_ event: DBusConnection.Event, generation: UInt64, on loop: any EngineLoop, handlers: Handlers) {
        guard isCurrent(generation), let connection = state.withLock({ $0.connection }) else { return }
        switch event {
        case .connected:
            state.withLock { $0.backoff.reset() }
            for rule in matches {
                connection.addMatch(rule) { [label] result in
                    if case .failure(let error) = result {
                        sourcesLogger.warning("match rule refused", metadata: ["source": "\(label)", "rule": "\(rule)", "error": "\(error)"])
                    }
                }
            }
            connection.addMatch(DBusMatchRule(sender: DBusConnection.busName, interface: DBusConnection.busName,
                                              member: "NameOwnerChanged", arg0: service))
            connection.nameOwner(of: service) { [weak self] result in
                loop.execute { [weak self] in self?.ownerFound(result, generation: generation, handlers: handlers) }
            }
        case .signal(let signal):
            if let change = DBusNameOwnerChanged(signal) {
                guard change.name == service else { return }
                ownerFound(.success(change.newOwner), generation: generation, handlers: handlers)
            } else {
                handlers.signal(signal)
            }
        case .disconnected(let failure):
            let delay: Double? = state.withLock { state in
                guard state.running, state.generation == generation else { return nil }
                state.connection = nil
                state.owner = nil
                return state.backoff.nextDelay()
            }
            guard let delay else { return }
            if failure == .unavailable {
                report("D-Bus is unavailable in this build: libdbus-1-dev is needed at build time", generation: generation, handlers: handlers)
                return
            }
            report("\(bus) unavailable: \(failure)", generation: generation, handlers: handlers)
            let retry = loop.schedule(after: delay) { [weak self] in
                guard let self, isCurrent(generation) else { return }
                connect(generation: generation, on: loop, handlers: handlers)
            }
            let kept = state.withLock { state -> Bool in
                guard state.running, state.generation == generation else { return false }
                state.retry = retry
                return true
            }
            if !kept { retry.cancel() }
        }
    }

    private func ownerFound(_ result: Result<String?, DBusFailure>, generation: UInt64, handlers: Handlers) {
        guard isCurrent(generation), let connection = state.withLock({ $0.connection }) else { return }
        switch result {
        case .success(let owner?):
            let changed = state.withLock { state -> Bool in
                defer { state.owner = owner; state.down = false }
                return state.owner != owner
            }
            if changed {
                sourcesLogger.info("service present", metadata: ["source": "\(label)", "service": "\(service)", "owner": "\(owner)"])
                handlers.appeared(connection)
            }
        case .success(nil):
            state.withLock { $0.owner = nil }
            report("\(service) is not running", generation: generation, handlers: handlers)
        case .failure(let failure):
            // The bus going away is reported by the connection's own event.
            if failure != .disconnected {
                report("cannot ask the bus for \(service): \(failure)", generation: generation, handlers: handlers)
            }
        }
    }

    /// Reports an outage once: later failures of the same outage are only logged at debug level.
    private func report(_ reason: String, generation: UInt64, handlers: Handlers) {
        let first = state.withLock { state -> Bool in
            guard state.running, state.generation == generation else { return false }
            defer { state.down = true }
            return !state.down
        }
        guard first else {
            sourcesLogger.debug("still unavailable", metadata: ["source": "\(label)", "reason": "\(reason)"])
            return
        }
        sourcesLogger.warning("service unavailable", metadata: ["source": "\(label)", "reason": "\(reason)"])
        handlers.vanished(reason)
    }

    /// Reports an outage the source itself found (the service answered, but cannot serve): said once
    /// like the link's own, until the service appears again.
    func reportUnavailable(_ reason: String) {
        guard let (generation, handlers) = state.withLock({ state in state.handlers.map { (state.generation, $0) } }) else { return }
        report(reason, generation: generation, handlers: handlers)
    }

    /// Forgets an outage the source reported, so that the next one is reported too.
    func markAvailable() {
        state.withLock { $0.down = false }
    }
}
