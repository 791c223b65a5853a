import Foundation
import TestSupport
import LocationCore

/// The project's executables, built next to the test bundle.
enum Executable {
    static let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    static let locationctl = directory.appendingPathComponent("locationctl")
    static let example = directory.appendingPathComponent("corelocation-example")
    static let locationd = directory.appendingPathComponent("locationd")
}

/// A finished process's results.
struct Finished {
    let status: Int32
    let exitedNormally: Bool
    let stdout: String
    let stderr: String

    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// A running child process whose output is collected line by line, with arrival times.
final class Child: @unchecked Sendable {
    let process = Process()
    private let out = Pipe(), err = Pipe()
    private let collected = Locked<(lines: [(Date, String)], partial: String, stderr: String)>(([], "", ""))
    /// Broadcast whenever output arrives, a pipe ends or the process exits, so waiting is not polling.
    private let changed = NSCondition()

    enum Input { case none, pipe }
    private let input = Pipe()
    private var readers: [Flag] = []

    /// Reads `handle` until end of file on a thread of its own; the returned flag is set at the end.
    /// The thread keeps the handle (and so its descriptor) alive until then.
    private static func drain(
        _ handle: FileHandle, _ changed: NSCondition, _ deliver: @escaping @Sendable (Data) -> Void
    ) -> Flag {
        let done = Flag()
        let thread = Thread {
            let fd = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    deliver(Data(buffer[..<count]))
                    changed.broadcastLocked()
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            withExtendedLifetime(handle) { done.set() }
            changed.broadcastLocked()
        }
        thread.start()
        return done
    }

    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], standardInput: Input = .none) throws {
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        // A child must never find a terminal, a stray policy or a running daemon of the developer's.
        env["CORELOCATION_PROMPT_POLICY"] = nil
        env["CORELOCATION_DAEMON_SOCKET"] = "none"
        env["XDG_CONFIG_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("no-config-\(UUID())").path
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = standardInput == .pipe ? input : FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        process.terminationHandler = { [changed] _ in changed.broadcastLocked() }
        try process.run()
        // Each pipe is drained by a thread of its own with plain read(2). (Foundation's
        // readabilityHandler is built on dispatch sources, and clearing it while the pipe closes
        // has crashed libdispatch's event loop here.)
        readers = [
            Self.drain(out.fileHandleForReading, changed) { [collected] data in
                collected.withLock { state in
                    state.partial += String(decoding: data, as: UTF8.self)
                    // Split on the scalar: a terminal's "\r\n" is one Character in Swift.
                    while let newline = state.partial.unicodeScalars.firstIndex(of: "\n") {
                        let line = String(state.partial.unicodeScalars[..<newline])
                        state.lines.append((Date(), line.hasSuffix("\r") ? String(line.dropLast()) : line))
                        state.partial = String(state.partial.unicodeScalars[state.partial.unicodeScalars.index(after: newline)...])
                    }
                }
            },
            Self.drain(err.fileHandleForReading, changed) { [collected] data in
                collected.withLock { $0.stderr += String(decoding: data, as: UTF8.self) }
            },
        ]
    }

    var lines: [String] { collected.withLock { $0.lines.map(\.1) } }
    /// The lines with the time each arrived.
    var timedLines: [(Date, String)] { collected.withLock { $0.lines } }
    /// Everything printed so far, including an unfinished last line (a prompt waiting for input).
    var stdoutText: String { collected.withLock { $0.lines.map(\.1).joined(separator: "\n") + "\n" + $0.partial } }

    /// Types `text` on the child's standard input.
    func type(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

    /// Waits up to `timeout` seconds until `condition` holds, checking it whenever the child prints
    /// something, a pipe ends or the child exits.
    func wait(timeout: TimeInterval, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        changed.lock()
        defer { changed.unlock() }
        while !condition() {
            if !changed.wait(until: deadline) { return condition() }
        }
        return true
    }

    func waitForOutput(timeout: TimeInterval, containing text: String) -> Bool {
        wait(timeout: timeout) { stdoutText.contains(text) }
    }
    var stderr: String { collected.withLock { $0.stderr } }

    /// When the first line matching `predicate` arrived, waiting up to `timeout` seconds.
    func waitForLine(timeout: TimeInterval, _ predicate: (String) -> Bool) -> Date? {
        var arrived: Date?
        _ = wait(timeout: timeout) {
            arrived = collected.withLock { $0.lines.first { predicate($0.1) } }?.0
            return arrived != nil
        }
        return arrived
    }

    /// When the first line matching `predicate` arrived, if one has.
    func firstLine(_ predicate: (String) -> Bool) -> Date? {
        collected.withLock { $0.lines.first { predicate($0.1) } }?.0
    }

    /// Waits up to `timeout` seconds until `condition` holds for the lines so far.
    func waitForLines(timeout: TimeInterval, _ condition: ([String]) -> Bool) -> Bool {
        wait(timeout: timeout) { condition(lines) }
    }

    func waitForStderr(timeout: TimeInterval, containing text: String) -> Bool {
        wait(timeout: timeout) { stderr.contains(text) }
    }

    /// Waits for exit (killing the child after `timeout`), then returns everything it printed.
    func finish(timeout: TimeInterval) -> Finished {
        _ = wait(timeout: timeout) { !process.isRunning }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // The pipes reach end of file once the child and anything it started have exited.
        _ = wait(timeout: 5) { readers.allSatisfy(\.isSet) }
        let (stdout, stderr) = collected.withLock { state in
            (state.lines.map(\.1).joined(separator: "\n") + (state.lines.isEmpty ? "" : "\n") + state.partial, state.stderr)
        }
        return Finished(
            status: process.terminationStatus, exitedNormally: process.terminationReason == .exit,
            stdout: stdout, stderr: stderr)
    }
}

// MARK: Waiting without holding a thread
//
// The test run's cooperative pool has as many threads as cores (two here): a test that blocks one
// for seconds stalls every async test meanwhile. These forms poll instead.

extension Child {
    /// As `waitForLine`, without blocking the thread.
    func line(within timeout: TimeInterval, _ predicate: @escaping @Sendable (String) -> Bool) async -> Date? {
        _ = await eventually(timeout: .milliseconds(Int(timeout * 1000))) { self.firstLine(predicate) != nil }
        return firstLine(predicate)
    }

    /// As `waitForLines`, without blocking the thread.
    func lines(within timeout: TimeInterval, _ condition: @escaping @Sendable ([String]) -> Bool) async -> Bool {
        await eventually(timeout: .milliseconds(Int(timeout * 1000))) { condition(self.lines) }
    }

    /// As `waitForOutput`, without blocking the thread.
    func output(within timeout: TimeInterval, containing text: String) async -> Bool {
        await eventually(timeout: .milliseconds(Int(timeout * 1000))) { self.stdoutText.contains(text) }
    }

    /// As `waitForStderr`, without blocking the thread.
    func stderr(within timeout: TimeInterval, containing text: String) async -> Bool {
        await eventually(timeout: .milliseconds(Int(timeout * 1000))) { self.stderr.contains(text) }
    }

    /// As `finish`, waiting for the exit without blocking the thread.
    func finished(within timeout: TimeInterval) async -> Finished {
        _ = await eventually(timeout: .milliseconds(Int(timeout * 1000))) { !self.process.isRunning }
        return finish(timeout: 0)
    }
}

/// Runs a command to completion.
func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> Finished {
    try Child(executable, arguments, environment: environment).finish(timeout: timeout)
}


/// Writes an Info.plist with the given location keys.
func writeInfoPlist(in directory: URL, bundleID: String, whenInUse: String?) throws -> URL {
    var dictionary: [String: Any] = ["CFBundleIdentifier": bundleID, "CFBundleName": "Printer"]
    if let whenInUse { dictionary["NSLocationWhenInUseUsageDescription"] = whenInUse }
    let data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
    let url = directory.appendingPathComponent("Info.plist")
    try data.write(to: url)
    return url
}

extension NSCondition {
    /// Wakes every waiter.
    func broadcastLocked() {
        lock()
        broadcast()
        unlock()
    }
}

/// A one-way flag shared between threads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
