import Foundation
import LocationCore
import LocationDBus
import TestSupport
import Testing

/// The libdbus binding against a real dbus-daemon and a python-dbusmock service: calls and replies,
/// values through the wire and back, errors, timeouts, signals and the bus going away.
@Suite(.enabled(if: PrivateBus.isMockAvailable, PrivateBus.skipMessage), .timeLimit(.minutes(2)))
struct DBusConnectionTests {
    static let service = "com.example.Echo"
    static let path = "/com/example/Echo"
    static let interface = "com.example.Echo"

    /// A bus with an echo service: `Echo(v) -> v` returns its argument, `Sleep(d)` sleeps.
    static func withEcho(_ body: (PrivateBus, DBusMock, DBusConnection) async throws -> Void) async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let mock = try await bus.startMock(name: service, arguments: [service, path, interface])
        defer { mock.stop() }
        let client = try await bus.connect()
        defer { client.close() }
        try await mock.mock("AddMethod", [.string(interface), .string("Echo"), .string("v"), .string("v"),
                                          .string("ret = args[0]")], path: path, via: client)
        try await mock.mock("AddMethod", [.string(interface), .string("Sleep"), .string("d"), .string(""),
                                          .string("import time; time.sleep(args[0])")], path: path, via: client)
        try await body(bus, mock, client)
    }

    static func echo(_ value: DBusValue, via client: DBusConnection) async throws -> DBusValue? {
        let reply = try await client.call(DBusMethodCall(destination: service, path: path, interface: interface,
                                                         member: "Echo", arguments: [.variant(value)]))
        return reply.first?.unwrapped
    }

    @Test func valuesSurviveTheBusAndBack() async throws {
        try await Self.withEcho { _, _, client in
            let values: [DBusValue] = [
                .byte(0xFF), .boolean(true), .boolean(false), .int16(-32768), .uint16(65535), .int32(Int32.min),
                .uint32(UInt32.max), .int64(Int64.min), .uint64(UInt64.max), .double(-0.1), .string("Grüße, 世界"),
                .string(""), .objectPath("/org/bluez/hci0"), .signature("a{sv}"),
                .array(elementSignature: "y", [.byte(0x4C), .byte(0x00), .byte(0x02)]),
                .array(elementSignature: "s", []),
                .dictionary(keySignature: "q", valueSignature: "v", [
                    DBusDictEntry(key: .uint16(0x004C), value: .variant(.array(elementSignature: "y", [.byte(2), .byte(0x15)]))),
                ]),
                .properties(["RSSI": .int16(-60), "Name": .string("beacon"),
                             "Nested": .properties(["Deeper": .array(elementSignature: "i", [.int32(1), .int32(-2)])])]),
                .structure([.string("a"), .int32(1), .array(elementSignature: "d", [.double(1.5)])]),
            ]
            for value in values {
                let echoed = try await Self.echo(value, via: client)
                #expect(echoed == value, "\(value.signature) came back as \(echoed.map { "\($0)" } ?? "nothing")")
            }
        }
    }

    @Test func errorsAreFailuresNotCrashes() async throws {
        try await Self.withEcho { _, _, client in
            // No such service on the bus.
            await #expect(throws: DBusFailure.remote(name: DBusFailure.serviceUnknown, message: "The name com.example.Nobody was not provided by any .service files")) {
                try await client.call(DBusMethodCall(destination: "com.example.Nobody", path: "/", interface: "com.example.X", member: "Y"))
            }
            // A method the service does not have.
            do throws(DBusFailure) {
                _ = try await client.call(DBusMethodCall(destination: Self.service, path: Self.path, interface: Self.interface, member: "Missing"))
                Issue.record("a missing method succeeded")
            } catch {
                guard case .remote(let name, _) = error else { Issue.record("\(error)"); return }
                #expect(name == DBusFailure.unknownMethod)
            }
            // Names and values libdbus would refuse are refused before anything is sent.
            let invalid: [DBusMethodCall] = [
                DBusMethodCall(destination: "not a name", path: "/", interface: "a.b", member: "C"),
                DBusMethodCall(destination: Self.service, path: "relative/path", interface: "a.b", member: "C"),
                DBusMethodCall(destination: Self.service, path: "/", interface: "nodots", member: "C"),
                DBusMethodCall(destination: Self.service, path: "/", interface: "a.b", member: "has.dot"),
                DBusMethodCall(destination: Self.service, path: "/", interface: "a.b", member: "C", arguments: [.string("nul\u{0}inside")]),
                DBusMethodCall(destination: Self.service, path: "/", interface: "a.b", member: "C", arguments: [.objectPath("/trailing/")]),
                DBusMethodCall(destination: Self.service, path: "/", interface: "a.b", member: "C", arguments: [.signature("a{")]),
                DBusMethodCall(destination: Self.service, path: "/", interface: "a.b", member: "C",
                               arguments: [.array(elementSignature: "s", [.int32(1)])]),
                DBusMethodCall(destination: Self.service, path: "/", interface: "a.b", member: "C",
                               arguments: [.dictionary(keySignature: "v", valueSignature: "s", [])]),
                DBusMethodCall(destination: Self.service, path: "/", interface: "a.b", member: "C", arguments: [.structure([])]),
                DBusMethodCall(destination: Self.service, path: "/", interface: "a.b", member: "C",
                               arguments: [(0..<40).reduce(DBusValue.int32(0)) { inner, _ in .array(elementSignature: inner.signature, [inner]) }]),
            ]
            for call in invalid {
                do throws(DBusFailure) {
                    _ = try await client.call(call)
                    Issue.record("\(call) was sent")
                } catch {
                    guard case .invalidArgument = error else { Issue.record("\(call): \(error)"); continue }
                }
            }
            // The connection still works afterwards.
            let echoed = try await Self.echo(.int32(7), via: client)
            #expect(echoed == .int32(7))
        }
    }

    @Test func aSlowReplyTimesOutAndLaterCallsStillWork() async throws {
        try await Self.withEcho { _, _, client in
            let started = ContinuousClock.now
            await #expect(throws: DBusFailure.timeout) {
                try await client.call(DBusMethodCall(destination: Self.service, path: Self.path, interface: Self.interface,
                                                     member: "Sleep", arguments: [.double(1.5)]), timeout: 0.3)
            }
            let waited = ContinuousClock.now - started
            // Not before its time; and `.timeout` rather than the reply, which comes 1.5 s after the call,
            // shows that it did not wait for the service (an upper bound on the time would only measure
            // the machine's load).
            #expect(waited >= .milliseconds(300), "timed out after \(waited)")
            let echoed = try await Self.echo(.string("after"), via: client)
            #expect(echoed == .string("after"))
        }
    }

    @Test func signalsArriveByMatchRule() async throws {
        try await Self.withEcho { bus, mock, client in
            let signals = Locked<[DBusSignal]>([])
            let listener = DBusConnection(bus: bus.bus, label: "test.dbus.listener") { event in
                if case .signal(let signal) = event { signals.withLock { $0.append(signal) } }
            }
            defer { listener.close() }
            let rule = DBusMatchRule(sender: Self.service, interface: DBusConnection.propertiesInterface,
                                     member: "PropertiesChanged", path: Self.path)
            _ = try await withCheckedThrowingContinuation { continuation in
                listener.addMatch(rule) { continuation.resume(with: $0) }
            }
            try await mock.mock("AddProperty", [.string(Self.interface), .string("Level"), .variant(.double(1))],
                                path: Self.path, via: client)
            try await mock.mock("UpdateProperties", [.string(Self.interface), .properties(["Level": .double(2.5)])],
                                path: Self.path, via: client)
            // (The bus's NameAcquired, addressed to the listener, may come first: it needs no match rule.)
            try #require(await eventually(timeout: PrivateBus.patience) {
                signals.withLock { $0.contains { $0.member == "PropertiesChanged" } }
            }, "PropertiesChanged arrives")
            let changed = try #require(signals.withLock { $0.compactMap(DBusPropertiesChanged.init).first })
            #expect(changed.interface == Self.interface)
            #expect(changed.changed["Level"] == .double(2.5))
            #expect(changed.path == Self.path)
            // The bus's own NameOwnerChanged, for a name that comes and goes.
            listener.addMatch(DBusMatchRule(sender: DBusConnection.busName, interface: DBusConnection.busName,
                                            member: "NameOwnerChanged", arg0: Self.service))
            try await Task.sleep(for: .milliseconds(100))
            mock.stop()
            try #require(await eventually(timeout: PrivateBus.patience) {
                signals.withLock { $0.compactMap(DBusNameOwnerChanged.init).contains { $0.name == Self.service && $0.newOwner == nil } }
            }, "the service's name is released when it exits")
        }
    }

    @Test func theBusGoingAwayEndsTheConnectionAndFailsPendingCalls() async throws {
        try await Self.withEcho { bus, _, _ in
            let events = Locked<[DBusConnection.Event]>([])
            let connection = DBusConnection(bus: bus.bus, label: "test.dbus.doomed") { event in
                events.withLock { $0.append(event) }
            }
            defer { connection.close() }
            try #require(await eventually(timeout: PrivateBus.patience) { events.withLock { !$0.isEmpty } })
            let pending = Task {
                try await connection.call(DBusMethodCall(destination: Self.service, path: Self.path, interface: Self.interface,
                                                         member: "Sleep", arguments: [.double(5)]), timeout: 20)
            }
            try await Task.sleep(for: .milliseconds(200))
            bus.stop()
            await #expect(throws: DBusFailure.disconnected) { try await pending.value }
            try #require(await eventually(timeout: PrivateBus.patience) { events.withLock { $0.last == .disconnected(.disconnected) } })
            await #expect(throws: DBusFailure.disconnected) {
                try await connection.call(DBusMethodCall(destination: Self.service, path: Self.path, interface: Self.interface, member: "Echo"))
            }
        }
    }
}

@Suite(.enabled(if: PrivateBus.isAvailable, PrivateBus.skipMessage))
struct DBusConnectFailureTests {
    @Test func anAddressWithNoBusIsAConnectionFailure() async throws {
        let events = Locked<[DBusConnection.Event]>([])
        let connection = DBusConnection(bus: .address("unix:path=/nonexistent/corelocation-test-bus")) { event in
            events.withLock { $0.append(event) }
        }
        try #require(await eventually(timeout: PrivateBus.patience) { !events.withLock { $0.isEmpty } })
        guard case .disconnected(.connectionFailed) = try #require(events.withLock { $0.first }) else {
            Issue.record("\(events.withLock { $0 })")
            return
        }
        await #expect(throws: DBusFailure.disconnected) {
            try await connection.call(DBusMethodCall(destination: "a.b", path: "/", interface: "a.b", member: "C"))
        }
    }
}
