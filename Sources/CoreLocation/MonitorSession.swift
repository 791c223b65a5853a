import Dispatch
import Foundation
import LocationBootstrap
import LocationCore
import LocationProtocol
import Logging

/// A monitor's connection to the location service: its fence group, opened on the connection,
/// the monitor's view of its conditions, and the events that go to `CLMonitor.events`.
///
/// Lives as long as the monitor or any of its `events` (an iteration keeps working after the app
/// dropped the monitor itself); the connection closes when the last of them goes.
final class MonitorSession: Sendable {
    let group: FenceGroup
    let queue = MonitorEventQueue()
    private let book: MonitorBook
    private let connection: any ClientConnection
    private let requiresExplicitSession: Bool
    private let logger = Logger(label: "corelocation.monitor")

    /// How long `CLMonitor.init` waits for the service's answer before starting empty.
    static let openTimeout: TimeInterval = 5

    init(name: String, system: LocationSystem) {
        group = .monitor(name)
        requiresExplicitSession = system.info.requiresExplicitServiceSession
        let book = MonitorBook(group: group, serviceSessionRequired: requiresExplicitSession)
        let queue = queue
        let logger = logger
        connection = system.provider.connect(app: system.app, info: system.info, process: system.process) { event in
            for monitorEvent in book.handle(event) where !queue.yield(monitorEvent) {
                logger.warning("monitor events not iterated; dropping the oldest",
                               metadata: ["kept": "\(MonitorEventQueue.capacity)"])
            }
        }
        if let initial = connection.initialAuthorization { book.setAuthorization(initial) }
        self.book = book
        if requiresExplicitSession {
            let registry = ServiceSessionRegistry.registry(for: system)
            sessions = (registry, registry.observe { held in book.setServiceSessionRequired(!held) })
        } else {
            sessions = nil
        }
    }

    /// The registry this monitor follows when the app requires explicit sessions.
    private let sessions: (registry: ServiceSessionRegistry, observation: UInt64)?

    deinit {
        if let sessions { sessions.registry.stopObserving(sessions.observation) }
        connection.close()
        queue.finish()
    }

    /// Opens the group and waits for its snapshot (or the timeout).
    func open() async {
        connection.send(.openFences(group))
        let answered = await withCheckedContinuation { continuation in
            book.waitForSnapshot(continuation)
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.openTimeout) { [book] in
                book.giveUpWaiting()
            }
        }
        if !answered {
            logger.error("the location service did not answer; the monitor starts empty", metadata: [
                "monitor": "\(group)", "waited": "\(Self.openTimeout) s",
            ])
        }
    }

    /// An iteration of `events` begins: the implicit When-In-Use session asks for authorization
    /// if it is not determined (once per monitor; the service shows one prompt per app anyway).
    func beginIteration() {
        guard !requiresExplicitSession, book.shouldAskForAuthorization() else { return }
        connection.send(.requestAuthorization(.whenInUse))
    }

    func add(_ condition: any CLCondition, identifier: String, assuming state: CLMonitor.Event.State) {
        guard let fence = ConditionMapping.fence(for: condition), !identifier.isEmpty else {
            // Never sent: the service could not store a type it does not know, and refuses what
            // is no place. An earlier condition with this identifier is replaced all the same.
            let (event, wasSent) = book.addUnsupported(condition, identifier: identifier, date: Date())
            if wasSent { connection.send(.removeFence(group, identifier: identifier)) }
            queue.yield(event)
            return
        }
        let definition = FenceDefinition(identifier: identifier, condition: fence, assumedState: FenceState(assuming: state))
        book.addSent(condition, definition: definition, date: Date())
        connection.send(.addFence(group, definition))
    }

    func remove(_ identifier: String) {
        if book.remove(identifier) { connection.send(.removeFence(group, identifier: identifier)) }
    }

    func record(for identifier: String) -> CLMonitor.Record? { book.record(for: identifier) }

    var identifiers: [String] { book.identifiers }
}
