import Foundation
import LocationCore
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd fed an NMEA log by `gpsfake` (Debian: `gpsd`, `gpsd-clients`), listening on a port of
/// its own, for integration tests.
///
/// gpsd runs as gpsfake's child. `kill()` asks gpsfake to end (SIGTERM: it stops gpsd and reaps it),
/// then kills whatever is left (gpsfake's process group, which Foundation's `Process` makes its own,
/// and gpsd by pid); `deinit` kills too, so no test path leaves a daemon behind. gpsfake's control
/// socket goes into a private temporary directory (`TMPDIR`), removed at the end.
///
/// gpsfake normally starts feeding the log as soon as gpsd is up, before any client watches, and
/// gpsd drops what arrives while no client has its device open or while it is still probing it
/// (gpsfake's own pipe mode sleeps 1.4 s for this). Here gpsfake runs single-stepping (`-i`, one line
/// of its standard input per sentence): `release()` hands it all the lines at once, and
/// `waitUntilReady()` waits for gpsd to answer a watch of the test's own, which it does only once the
/// device is open and probed. A test then sees the whole log, at `-c` seconds per sentence.
final class GPSFake: @unchecked Sendable {
    static let gpsfake = findExecutable("gpsfake", in: ["/usr/bin", "/usr/local/bin"])
    static let gpsd = findExecutable("gpsd", in: ["/usr/sbin", "/usr/local/sbin", "/usr/bin"])
    /// gpsfake is a Python program importing `gps.fake` (Debian `python3-gps`).
    static var isAvailable: Bool {
        gpsfake != nil && gpsd != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    }

    let port: Int
    let log: String
    private let process = Process()
    private let input = Pipe()
    private let directory: TemporaryDirectory
    private let sentences: Int
    private var killed = false

    /// Starts gpsd under gpsfake on `port`, replaying `log` once at `cycle` seconds per sentence.
    init(log: String, port: Int, cycle: Double) throws {
        guard let gpsfake = Self.gpsfake, let gpsd = Self.gpsd else { throw GPSFakeError("gpsfake or gpsd not installed") }
        self.port = port
        self.log = log
        sentences = try String(contentsOfFile: log, encoding: .utf8).split(whereSeparator: \.isNewline).count
        directory = try TemporaryDirectory()
        process.executableURL = URL(fileURLWithPath: gpsfake)
        process.arguments = ["-P", String(port), "-1", "-i", "-q", "-c", String(cycle), "-W", "120", log]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = directory.path
        // gpsfake looks for gpsd on the PATH (and adds /usr/sbin itself, but say where it is).
        environment["PATH"] = (gpsd as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        process.standardInput = input
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = try FileHandle(forWritingTo: createFile("gpsfake.err"))
        try process.run()
    }

    private func createFile(_ name: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        return url
    }

    /// What gpsfake and gpsd wrote to standard error (for failure messages).
    var errors: String {
        (try? String(contentsOf: directory.url.appendingPathComponent("gpsfake.err"), encoding: .utf8)) ?? ""
    }

    /// Waits until gpsd accepts connections and lists gpsfake's device; false on timeout or when
    /// gpsfake died.
    ///
    /// gpsfake adds its pseudo-terminal to gpsd through gpsd's control socket as soon as the socket's
    /// file exists, and says nothing when that connection fails (gps/fake.py's `add_device` returns
    /// quietly): gpsd then runs without a device, and no watch ever opens one. Such a gpsd is given the
    /// device here, through the same control socket.
    func waitUntilListening(timeout: Duration = .seconds(15)) async -> Bool {
        guard await eventually(timeout: timeout, { !process.isRunning || canConnect(port: port) }), process.isRunning else {
            return false
        }
        if await hasDevice(within: .seconds(5)) { return true }
        guard let pty = fakeDevice, control("+\(pty)") else { return false }
        return await hasDevice(within: .seconds(5))
    }

    /// Whether gpsd lists a device within `timeout`, asked every 100 ms (each question is a
    /// connection of its own).
    private func hasDevice(within timeout: Duration) async -> Bool {
        await eventually(timeout: timeout, every: .milliseconds(100)) { devices()?.isEmpty == false }
    }

    /// The paths of the devices gpsd lists (`?DEVICES;`); nil when it does not answer.
    func devices() -> [String]? {
        guard let answer = ask("?DEVICES;", until: #""class":"DEVICES""#, timeout: 2) else { return nil }
        let line = answer.split(whereSeparator: \.isNewline).first { $0.contains(#""class":"DEVICES""#) } ?? ""
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let list = object["devices"] as? [[String: Any]] else { return nil }
        return list.compactMap { $0["path"] as? String }
    }

    /// What gpsd has to say about itself, for failure messages.
    var diagnosis: String {
        "gpsd pid \(gpsdPID.map(String.init) ?? "none"), devices \(devices()?.description ?? "no answer"), " +
            "client connections \(clientConnections); \(errors)"
    }

    /// gpsfake's pseudo-terminal: the /dev/pts entry among its descriptors with the highest number.
    /// gpsfake opens a first pseudo-terminal only to see that it can, and keeps it; the device's is
    /// opened after it.
    private var fakeDevice: String? {
        let pid = process.processIdentifier
        guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return nil }
        return fds.compactMap(Int.init).sorted(by: >).lazy
            .compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
            .first { $0.hasPrefix("/dev/pts/") }
    }

    /// Sends `command` (`+PATH` adds a device) to gpsd through gpsfake's control socket
    /// (`TMPDIR/gpsfake-PID.sock`); true when gpsd answers OK.
    private func control(_ command: String) -> Bool {
        let path = directory.url.appendingPathComponent("gpsfake-\(process.processIdentifier).sock").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8) + [0])
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
        guard connected else { return false }
        let bytes = Array("\(command)\r\n".utf8) + [0]
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else { return false }
        var reply = [UInt8](repeating: 0, count: 12)
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 5000) > 0 else { return false }
        let count = reply.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return count > 0 && String(decoding: reply[..<count], as: UTF8.self).hasPrefix("OK")
    }

    /// gpsd's process id (gpsfake's child).
    var gpsdPID: Int32? {
        let parent = process.processIdentifier
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for entry in entries {
            guard let pid = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let name = stat[stat.index(after: stat.firstIndex(of: "(")!)..<close]
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            if name == "gpsd", fields.count > 1, Int32(fields[1]) == parent { return pid }
        }
        return nil
    }

    /// True once gpsd has the fake receiver (a pseudo-terminal) open: some client is watching.
    var deviceIsOpen: Bool {
        guard let pid = gpsdPID,
              let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return false }
        return fds.contains { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"))?.hasPrefix("/dev/pts/") == true
        }
    }

    /// Waits until gpsd has opened and probed its device: a watch of the test's own is answered only
    /// then (gpsd is single-threaded). The probe connection is closed before returning.
    func waitUntilReady(timeout: Double = 15) -> Bool {
        ask(#"?WATCH={"enable":true,"json":true};"#, until: #""class":"WATCH""#, timeout: timeout) != nil
    }

    /// Sends `command` to gpsd on a connection of its own and reads until `marker` arrives; what was
    /// read, or nil when the marker did not come within `timeout` seconds. The connection is closed
    /// before returning.
    private func ask(_ command: String, until marker: String, timeout: Double) -> String? {
        guard let fd = connectedLoopbackSocket(port: port) else { return nil }
        defer { close(fd) }
        let bytes = Array(command.utf8) + [10]
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else { return nil }
        var received = ""
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { return nil }
            guard poller.revents != 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received += String(decoding: buffer[..<count], as: UTF8.self)
            if received.contains(marker) { return received }
        }
        return nil
    }

    /// Lets gpsfake feed the whole log.
    func release() {
        input.fileHandleForWriting.write(Data(String(repeating: "\n", count: sentences + 10).utf8))
    }

    /// gpsd's TCP connections with clients, as the kernel sees gpsd's end: ESTABLISHED, or CLOSE_WAIT
    /// (the client closed and gpsd has not closed its end yet). Zero means gpsd dropped every client.
    var clientConnections: Int { serverSideConnections(port: port) }

    /// Kills gpsd alone, as a crash would (gpsfake then notices and exits).
    func crashDaemon() {
        if let pid = gpsdPID { _ = Glibc.kill(pid, SIGKILL) }
    }

    /// Ends gpsfake and gpsd: SIGTERM to gpsfake (which stops and reaps gpsd), SIGKILL to what is left
    /// after 2 s.
    func kill() {
        guard !killed else { return }
        killed = true
        let pid = process.processIdentifier
        let daemon = gpsdPID
        if process.isRunning {
            _ = Glibc.kill(pid, SIGTERM)
            // Polled, not a `terminationHandler`: with one set on this `Process`, gpsd's connection to
            // the source was gone before the test stopped its watch in two runs of three.
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        }
        if process.isRunning {
            if getpgid(pid) == pid { _ = Glibc.kill(-pid, SIGKILL) }
            _ = Glibc.kill(pid, SIGKILL)
        }
        // gpsd outlived gpsfake (it was killed): end it, if that pid is still our gpsd.
        if let daemon, (try? String(contentsOfFile: "/proc/\(daemon)/comm", encoding: .utf8))?.hasPrefix("gpsd") == true {
            _ = Glibc.kill(daemon, SIGKILL)
        }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        directory.remove()
    }

    deinit { kill() }
}

struct GPSFakeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func findExecutable(_ name: String, in directories: [String]) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
    return (path + directories).map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// A TCP port on 127.0.0.1 that was free a moment ago.
func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard ok else { throw GPSFakeError("no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}

func canConnect(port: Int) -> Bool {
    guard let fd = connectedLoopbackSocket(port: port) else { return false }
    close(fd)
    return true
}

/// A TCP socket connected to 127.0.0.1:`port`, or nil when nothing accepts there.
func connectedLoopbackSocket(port: Int) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard connected else {
        close(fd)
        return nil
    }
    return fd
}

/// Server-side TCP connections on `port` (ESTABLISHED or CLOSE_WAIT), from /proc/net/tcp and tcp6.
func serverSideConnections(port: Int) -> Int {
    let hexPort = String(format: ":%04X", port)
    var count = 0
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        // Read to the end: `String(contentsOfFile:)` stops after the first 4 KiB of a /proc file
        // (about 27 sockets), and a full test run has many more.
        guard let handle = FileHandle(forReadingAtPath: table) else { continue }
        defer { try? handle.close() }
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 3, fields[1].hasSuffix(hexPort) else { continue }
            if fields[3] == "01" || fields[3] == "08" { count += 1 }
        }
    }
    return count
}
