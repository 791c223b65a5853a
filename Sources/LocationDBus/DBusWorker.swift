#if canImport(CDBus)
import CDBus
import Foundation
import LocationCore
import Logging

/// The thread behind one `DBusConnection`: the only code that touches its libdbus connection.
///
/// The loop: hand out every message libdbus has queued; send what callers queued and flush (a flush
/// may read too, so the loop goes round again before waiting); fail calls past their deadline; then
/// `poll(2)` on the bus socket and the wake-up pipe until something happens or the next deadline.
final class DBusWorker: @unchecked Sendable {
    // @unchecked: `connection` and `pending` are used only on the worker's own thread.
    private let bus: DBusBus
    private let shared: Locked<DBusQueue>
    private let events: @Sendable (DBusConnection.Event) -> Void
    private var connection: OpaquePointer?
    private var pending: [UInt32: (deadline: ContinuousClock.Instant, reply: DBusConnection.Reply)] = [:]
    private var wakeRead: Int32 = -1
    private var lost = false

    private static let threadsInitialized: Bool = dbus_threads_init_default() != 0

    static func start(bus: DBusBus, label: String, shared: Locked<DBusQueue>,
                      events: @escaping @Sendable (DBusConnection.Event) -> Void) {
        _ = threadsInitialized
        let worker = DBusWorker(bus: bus, shared: shared, events: events)
        // The kernel's thread name (15 bytes at most), so tools (`top -H`, /proc/PID/task) show it:
        // Foundation's `Thread.name` does not set it on Linux, and Glibc's Swift module has no
        // pthread_setname_np, so it is written where the kernel keeps it.
        let shortName = String(decoding: Array(label.utf8.prefix(15)), as: UTF8.self)
        let thread = Thread {
            try? shortName.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
            worker.run()
        }
        thread.name = label
        thread.start()
    }

    static func wake(_ shared: Locked<DBusQueue>) {
        shared.withLock { queue in
            guard queue.wakeDescriptor >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(queue.wakeDescriptor, &byte, 1)  // a full pipe already wakes the thread
        }
    }

    private init(bus: DBusBus, shared: Locked<DBusQueue>, events: @escaping @Sendable (DBusConnection.Event) -> Void) {
        self.bus = bus
        self.shared = shared
        self.events = events
    }

    private func run() {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            finish(connectionError: .connectionFailed("cannot create a pipe: errno \(errno)"))
            return
        }
        for end in pipeEnds {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = pipeEnds[0]
        let stillWanted = shared.withLock { queue -> Bool in
            queue.wakeDescriptor = pipeEnds[1]
            return !queue.closed
        }
        defer {
            shared.withLock { queue in
                Glibc.close(queue.wakeDescriptor)
                queue.wakeDescriptor = -1
            }
            Glibc.close(wakeRead)
        }
        guard stillWanted else {
            finish(connectionError: nil)
            return
        }
        let uniqueName: String
        do throws(DBusFailure) {
            (connection, uniqueName) = try connect()
        } catch {
            finish(connectionError: error)
            return
        }
        dbusLogger.debug("connected", metadata: ["bus": "\(bus)", "name": "\(uniqueName)"])
        events(.connected(uniqueName: uniqueName))
        let closedByCaller = serve()
        if let connection {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            self.connection = nil
        }
        finish(connectionError: closedByCaller ? nil : .disconnected)
    }

    /// Fails whatever is queued or pending; reports `error` unless the caller closed the connection.
    private func finish(connectionError: DBusFailure?) {
        let (queued, closed) = shared.withLock { queue -> ([DBusQueue.Outgoing], Bool) in
            defer { queue.outgoing = []; queue.closed = true }
            return (queue.outgoing, queue.closed)
        }
        let failure = connectionError ?? .disconnected
        for call in pending.values { call.reply(.failure(failure)) }
        pending = [:]
        for call in queued { call.reply(.failure(failure)) }
        if let connectionError, !closed {
            dbusLogger.debug("connection ended", metadata: ["bus": "\(bus)", "reason": "\(connectionError)"])
            events(.disconnected(connectionError))
        }
    }

    private func connect() throws(DBusFailure) -> (OpaquePointer, String) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let opened: OpaquePointer?
        switch bus {
        case .system:
            // Honours DBUS_SYSTEM_BUS_ADDRESS; connects and says Hello.
            opened = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
        case .address(let address):
            guard !address.utf8.contains(0) else { throw .connectionFailed("address contains NUL") }
            opened = dbus_connection_open_private(address, &error)
            if let opened, dbus_bus_register(opened, &error) == 0 {
                dbus_connection_close(opened)
                dbus_connection_unref(opened)
                throw .connectionFailed(Self.describe(&error))
            }
        }
        guard let opened else { throw .connectionFailed(Self.describe(&error)) }
        // libdbus's default for bus connections is to exit the process when the bus goes away.
        dbus_connection_set_exit_on_disconnect(opened, 0)
        let name = dbus_bus_get_unique_name(opened).map { String(cString: $0) } ?? ""
        return (opened, name)
    }

    private static func describe(_ error: inout CDBus.DBusError) -> String {
        guard dbus_error_is_set(&error) != 0 else { return "unknown error" }
        let name = error.name.map { String(cString: $0) } ?? ""
        let message = error.message.map { String(cString: $0) } ?? ""
        return message.isEmpty ? name : "\(name): \(message)"
    }

    /// Serves the connection until the caller closes it (true) or the bus goes away (false).
    private func serve() -> Bool {
        guard let connection else { return false }
        var socket: Int32 = -1
        // The socket of any transport (Unix or TCP), for poll(2).
        guard dbus_connection_get_socket(connection, &socket) != 0 else { return false }
        while true {
            while let message = dbus_connection_pop_message(connection) {
                handle(message, on: connection)
                dbus_message_unref(message)
            }
            if lost || dbus_connection_get_is_connected(connection) == 0 { return false }
            let (calls, closed) = shared.withLock { queue -> ([DBusQueue.Outgoing], Bool) in
                defer { queue.outgoing = [] }
                return (queue.outgoing, queue.closed)
            }
            if closed {
                // Calls queued before `close()` still go out (a source's last "release"); their replies
                // cannot arrive, so they fail with `.disconnected` when the connection ends.
                for call in calls { send(call, on: connection) }
                if !calls.isEmpty { dbus_connection_flush(connection) }
                return true
            }
            if !calls.isEmpty {
                for call in calls { send(call, on: connection) }
                dbus_connection_flush(connection)
                continue
            }
            expireCalls()
            var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, pollTimeout())
            if ready < 0, errno != EINTR { return false }
            if descriptors[1].revents != 0 { drainWakePipe() }
            if descriptors[0].revents != 0, dbus_connection_read_write(connection, 0) == 0 { lost = true }
        }
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    /// Milliseconds until the nearest call deadline, -1 when none is pending.
    private func pollTimeout() -> Int32 {
        guard let nearest = pending.values.map(\.deadline).min() else { return -1 }
        let remaining = ContinuousClock.now.duration(to: nearest)
        let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: max(0, milliseconds))
    }

    private func expireCalls() {
        let now = ContinuousClock.now
        for (serial, call) in pending where call.deadline <= now {
            pending[serial] = nil
            call.reply(.failure(.timeout))
        }
    }

    private func send(_ outgoing: DBusQueue.Outgoing, on connection: OpaquePointer) {
        let call = outgoing.call
        do throws(DBusFailure) {
            try DBusNames.check(call)
            guard let message = dbus_message_new_method_call(call.destination, call.path, call.interface, call.member) else {
                throw .invalidArgument("cannot create the message")
            }
            defer { dbus_message_unref(message) }
            try DBusArgumentWriter.append(call.arguments, to: message)
            var serial: dbus_uint32_t = 0
            guard dbus_connection_send(connection, message, &serial) != 0 else { throw .disconnected }
            pending[serial] = (ContinuousClock.now.advanced(by: .milliseconds(Int64(outgoing.timeout * 1000))), outgoing.reply)
        } catch {
            outgoing.reply(.failure(error))
        }
    }

    private func handle(_ message: OpaquePointer, on connection: OpaquePointer) {
        switch dbus_message_get_type(message) {
        case DBUS_MESSAGE_TYPE_METHOD_RETURN:
            guard let call = pending.removeValue(forKey: dbus_message_get_reply_serial(message)) else { return }
            do throws(DBusFailure) {
                call.reply(.success(try DBusArgumentReader.arguments(of: message)))
            } catch {
                call.reply(.failure(error))
            }
        case DBUS_MESSAGE_TYPE_ERROR:
            guard let call = pending.removeValue(forKey: dbus_message_get_reply_serial(message)) else { return }
            let name = dbus_message_get_error_name(message).map { String(cString: $0) } ?? "unknown error"
            let text = (try? DBusArgumentReader.arguments(of: message))?.first?.string ?? ""
            call.reply(.failure(.remote(name: name, message: text)))
        case DBUS_MESSAGE_TYPE_SIGNAL:
            let text = { (pointer: UnsafePointer<CChar>?) in pointer.map { String(cString: $0) } ?? "" }
            let signal = (sender: text(dbus_message_get_sender(message)), path: text(dbus_message_get_path(message)),
                          interface: text(dbus_message_get_interface(message)), member: text(dbus_message_get_member(message)))
            if signal.interface == "org.freedesktop.DBus.Local", signal.member == "Disconnected" {
                lost = true
                return
            }
            do throws(DBusFailure) {
                let arguments = try DBusArgumentReader.arguments(of: message)
                events(.signal(DBusSignal(sender: signal.sender, path: signal.path, interface: signal.interface,
                                          member: signal.member, arguments: arguments)))
            } catch {
                dbusLogger.debug("signal dropped", metadata: ["member": "\(signal.interface).\(signal.member)", "error": "\(error)"])
            }
        case DBUS_MESSAGE_TYPE_METHOD_CALL:
            // Nothing is exported here: say so rather than leave the caller waiting for its timeout.
            guard dbus_message_get_no_reply(message) == 0,
                  let error = dbus_message_new_error(message, DBusFailure.unknownMethod, "no objects are exported here") else { return }
            dbus_connection_send(connection, error, nil)
            dbus_message_unref(error)
        default:
            break
        }
    }
}
#endif
