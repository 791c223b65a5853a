import Foundation
import LocationCore
import Logging

/// One private connection to a D-Bus bus, served by its own thread.
///
/// The thread connects (`Hello` included), then waits in `poll(2)` on the bus socket and a wake-up
/// pipe, so an idle connection costs no wake-ups. libdbus is only ever touched from that thread: calls
/// made from any thread are queued as Swift values and turned into messages there. Replies and events
/// are delivered **on the connection's thread**, one at a time and in order: a caller that keeps state
/// elsewhere hops to its own queue or loop (the sources hop onto the engine loop).
///
/// Events: `.connected` once the bus has accepted us, then `.signal`s (what the match rules added with
/// `addMatch` select, and any signal addressed to us), then at most one `.disconnected` when the bus
/// goes away or the connection cannot be made. Nothing is delivered after `close()`. Every pending
/// call gets exactly one reply: the service's, an error, `.timeout`, or `.disconnected`.
///
/// Where libdbus-1-dev was missing at build time (`isSupported` false) every connection fails at once
/// with `DBusFailure.unavailable`, and the first attempt logs that.
public final class DBusConnection: Sendable {
    public enum Event: Sendable, Equatable {
        case connected(uniqueName: String)
        case signal(DBusSignal)
        case disconnected(DBusFailure)
    }

    public typealias Reply = @Sendable (Result<[DBusValue], DBusFailure>) -> Void

    /// Whether this build can talk D-Bus (libdbus-1's headers were there when it was built).
    public static var isSupported: Bool {
        #if canImport(CDBus)
        true
        #else
        false
        #endif
    }

    /// The default timeout of a call, seconds (libdbus's own default is 25 s; a local service that has
    /// not answered in 10 s is treated as gone).
    public static let defaultTimeout: TimeInterval = 10

    public let bus: DBusBus
    let shared: Locked<DBusQueue>

    /// Starts connecting at once, on a new thread named `label`.
    public init(bus: DBusBus, label: String = "corelocation.dbus", events: @escaping @Sendable (Event) -> Void) {
        self.bus = bus
        shared = Locked(DBusQueue())
        #if canImport(CDBus)
        DBusWorker.start(bus: bus, label: label, shared: shared, events: events)
        #else
        Self.reportUnavailable()
        shared.withLock { $0.closed = true }
        DispatchQueue.global().async { events(.disconnected(.unavailable)) }
        #endif
    }

    deinit { close() }

    /// Calls a method; `reply` gets the reply's arguments or why there is none.
    public func call(_ call: DBusMethodCall, timeout: TimeInterval = DBusConnection.defaultTimeout, reply: @escaping Reply) {
        let accepted = shared.withLock { queue -> Bool in
            guard !queue.closed else { return false }
            queue.outgoing.append(DBusQueue.Outgoing(call: call, timeout: Self.clamped(timeout), reply: reply))
            return true
        }
        guard accepted else {
            DispatchQueue.global().async { reply(.failure(Self.isSupported ? .disconnected : .unavailable)) }
            return
        }
        wake()
    }

    /// A timeout the worker can count in milliseconds: 0 ... one day, NaN as the default.
    public static func clamped(_ timeout: TimeInterval) -> TimeInterval {
        timeout.isNaN ? defaultTimeout : min(max(0, timeout), 86_400)
    }

    /// Closes the connection: calls already made are still sent, pending ones fail with `.disconnected`,
    /// and no event follows.
    public func close() {
        let first = shared.withLock { queue -> Bool in
            defer { queue.closed = true }
            return !queue.closed
        }
        if first { wake() }
    }

    private func wake() {
        #if canImport(CDBus)
        DBusWorker.wake(shared)
        #endif
    }

    #if !canImport(CDBus)
    private static let unavailableReported = Locked(false)

    private static func reportUnavailable() {
        let first = unavailableReported.withLock { reported -> Bool in
            defer { reported = true }
            return !reported
        }
        if first {
            dbusLogger.warning("D-Bus is unavailable in this build: libdbus-1-dev (headers and libdbus-1.so) is needed at build time; install it and rebuild to use D-Bus sources")
        }
    }
    #endif
}

/// What callers hand the connection's thread.
struct DBusQueue {
    struct Outgoing {
        var call: DBusMethodCall
        var timeout: TimeInterval
        var reply: DBusConnection.Reply
    }

    var outgoing: [Outgoing] = []
    var closed = false
    /// The write end of the thread's wake-up pipe (-1 until it exists, and after it is closed).
    var wakeDescriptor: Int32 = -1
}
