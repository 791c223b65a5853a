import Foundation
import LocationCore
import LocationDBus
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A private `dbus-daemon` for one test, in its own temporary directory, and python-dbusmock services
/// on it: the real bus and a scriptable service, so the D-Bus code is tested against what it meets on
/// a device. CI installs libdbus-1-dev, dbus-daemon and python3-dbusmock, so these tests always run
/// there; elsewhere they are skipped, saying so (`skipMessage`).
final class PrivateBus: Sendable {
    static let skipMessage: Comment = """
        SKIPPED: D-Bus tests need libdbus-1-dev at build time, dbus-daemon, and python3-dbusmock with \
        python3-dbus (apt-get install libdbus-1-dev dbus-daemon python3-dbusmock; touch Package.swift and rebuild)
        """

    /// How long a test waits for something the bus or a mock service must do: python-dbusmock answers
    /// in milliseconds alone, but seconds late when the whole suite runs on two busy cores.
    static let patience: Duration = .seconds(40)

    /// Whether a bus can be started and the build speaks D-Bus.
    static var isAvailable: Bool { DBusConnection.isSupported && daemon != nil }
    /// Whether dbusmock services can be started on it too.
    static var isMockAvailable: Bool { isAvailable && mockPython != nil }

    static let daemon: String? = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon", "/usr/local/bin/dbus-daemon"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A Python that can import both `dbus` and `dbusmock`: Debian's /usr/bin/python3 first (where
    /// python3-dbusmock installs), then every `python3` on PATH (which may be another interpreter
    /// without the `dbus` module).
    static let mockPython: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = ["/usr/bin/python3"] + path.split(separator: ":").map { "\($0)/python3" }
        return candidates.first { candidate in
            guard FileManager.default.isExecutableFile(atPath: candidate) else { return false }
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: candidate)
            probe.arguments = ["-c", "import dbus, dbusmock"]
            probe.standardOutput = FileHandle.nullDevice
            probe.standardError = FileHandle.nullDevice
            guard (try? probe.run()) != nil else { return false }
            probe.waitUntilExit()
            return probe.terminationStatus == 0
        }
    }()

    let address: String
    let directory: TemporaryDirectory
    private let process: Process

    /// Starts the bus; its address is a socket in the test's own directory.
    init() throws {
        guard let daemon = Self.daemon else { throw PrivateBusError("dbus-daemon not installed") }
        directory = try TemporaryDirectory()
        let socket = directory.url.appendingPathComponent("bus").path
        // A session-type bus that lets every connection own any name and talk to anyone: the test
        // plays both the service and its client.
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let configPath = directory.url.appendingPathComponent("bus.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: daemon)
        process.arguments = ["--config-file=\(configPath)", "--nofork", "--print-address"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        guard let text = String(data: line, encoding: .utf8)?.split(whereSeparator: \.isNewline).first, !text.isEmpty else {
            killAndReap(process)
            directory.remove()
            throw PrivateBusError("dbus-daemon printed no address")
        }
        address = String(text)
    }

    var bus: DBusBus { .address(address) }

    /// Stops the bus (its clients see it go away) and removes its directory.
    func stop() {
        killAndReap(process)
        directory.remove()
    }

    /// A connection of the test's own, connected (it fails the test otherwise).
    func connect(label: String = "test.dbus.client") async throws -> DBusConnection {
        let connected = Locked<Bool?>(nil)
        let connection = DBusConnection(bus: bus, label: label) { event in
            switch event {
            case .connected: connected.withLock { $0 = true }
            case .disconnected: connected.withLock { $0 = $0 ?? false }
            case .signal: break
            }
        }
        try #require(await eventually(timeout: Self.patience) { connected.withLock { $0 } != nil })
        try #require(connected.withLock { $0 } == true, "the test connects to its private bus")
        return connection
    }

    /// Starts `python3 -m dbusmock --system ARGUMENTS` on this bus (as its system bus) and waits until
    /// it owns `name`.
    func startMock(name: String, arguments: [String]) async throws -> DBusMock {
        guard let python = Self.mockPython else { throw PrivateBusError("no python with dbus and dbusmock") }
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: python)
        mock.arguments = ["-m", "dbusmock", "--system"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        mock.environment = environment
        let log = directory.url.appendingPathComponent("mock-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        mock.standardOutput = logHandle
        mock.standardError = logHandle
        try mock.run()
        let client = try await connect(label: "test.dbus.mock-watch")
        defer { client.close() }
        let deadline = ContinuousClock.now.advanced(by: .seconds(15))
        var owned = false
        while !owned, mock.isRunning, ContinuousClock.now < deadline {
            owned = ((try? await client.nameOwner(of: name)) ?? nil) != nil
            if !owned { try await Task.sleep(for: .milliseconds(20)) }
        }
        guard owned, mock.isRunning else {
            killAndReap(mock)
            throw PrivateBusError("dbusmock did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        return DBusMock(process: mock, name: name, log: log)
    }
}

/// One running dbusmock service.
final class DBusMock: Sendable {
    static let mockInterface = "org.freedesktop.DBus.Mock"

    let name: String
    let log: URL
    private let process: Process

    init(process: Process, name: String, log: URL) {
        self.process = process
        self.name = name
        self.log = log
    }

    /// Ends the service: its name vanishes from the bus.
    func stop() {
        killAndReap(process)
    }

    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Calls a method of `org.freedesktop.DBus.Mock` on `path`.
    @discardableResult
    func mock(_ member: String, _ arguments: [DBusValue], path: String, via connection: DBusConnection) async throws -> [DBusValue] {
        try await connection.call(DBusMethodCall(destination: name, path: path, interface: Self.mockInterface,
                                                 member: member, arguments: arguments))
    }

    /// How many times `method` was called on `path` (dbusmock's call log).
    func callCount(_ method: String, path: String, via connection: DBusConnection) async throws -> Int {
        let reply = try await mock("GetMethodCalls", [.string(method)], path: path, via: connection)
        return reply.first?.elements?.count ?? 0
    }
}

/// Ends a child with SIGKILL and waits for it. Not SIGTERM: a child started from a test inherits the
/// starting thread's signal mask, in which the test runtime's threads block SIGTERM, so `terminate()`
/// would not end it. Neither dbus-daemon nor dbusmock needs a clean exit: the bus sees the socket close.
func killAndReap(_ process: Process) {
    guard process.isRunning else { return }
    _ = kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
}

struct PrivateBusError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension DBusValue {
    /// `a{sv}` from Swift values, for building test arguments.
    static func properties(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "v", entries.sorted { $0.key < $1.key }.map {
            DBusDictEntry(key: .string($0.key), value: .variant($0.value))
        })
    }
}

/// `eventually` for a condition that must ask the bus: polls every 20 ms until it holds or `timeout` passes.
func eventuallyAsync(timeout: Duration = .seconds(5), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}
