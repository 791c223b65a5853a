import Foundation
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ProcessStampTests {
    @Test func currentProcessIsAlive() {
        let stamp = ProcessStamp.current()
        #expect(stamp.pid == getpid())
        #expect(stamp.startTime > 0)
        #expect(ProcessStamp.isAlive(stamp))
        #expect(ProcessStamp.read(pid: getpid()) == stamp)
    }

    @Test func reusedPidIsNotAlive() {
        var stamp = ProcessStamp.current()
        stamp.startTime += 1
        #expect(!ProcessStamp.isAlive(stamp))
    }

    @Test func finishedChildIsNotAlive() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }
        let stamp = try #require(ProcessStamp.read(pid: child.processIdentifier))
        #expect(ProcessStamp.isAlive(stamp))
        // SIGKILL: under the test runner, Process.terminate()'s SIGTERM went unheeded for the full 30 s.
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(!ProcessStamp.isAlive(stamp))
    }

    @Test func finishedTrueIsNotAlive() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        let pid = child.processIdentifier
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        #expect(!ProcessStamp.isAlive(ProcessStamp(pid: pid, startTime: ProcessStamp.current().startTime)))
    }

    @Test(arguments: [Int32.max, 4_194_305, 0, -1])
    func fakePidIsNotAlive(pid: Int32) {
        #expect(!ProcessStamp.isAlive(ProcessStamp(pid: pid, startTime: 12345)))
        #expect(ProcessStamp.read(pid: pid) == nil)
    }

    /// Lines as the kernel writes them: the command name (field 2) may hold spaces and parentheses.
    static let statLines: [(comm: String, state: String, alive: Bool)] = [
        ("(bash)", "S", true),
        ("(my app) (v2)", "R", true),
        ("(a) b) c (d)", "S", true),
        ("())", "D", true),
        ("(zombie)", "Z", false),
        ("(dead)", "X", false),
    ]

    @Test(arguments: statLines)
    func parsesStatRobustly(line: (comm: String, state: String, alive: Bool)) throws {
        try withTemporaryDirectory { procRoot in
            let pid: Int32 = 4242
            // Fields 3...22: state, ppid, pgrp, session, tty, tpgid, flags, minflt, cminflt, majflt, cmajflt,
            // utime, stime, cutime, cstime, priority, nice, threads, itrealvalue, starttime; then more.
            let rest = "\(line.state) 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 987654321 12345678 300"
            let directory = procRoot.appendingPathComponent("\(pid)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data("\(pid) \(line.comm) \(rest)\n".utf8).write(to: directory.appendingPathComponent("stat"))

            let stamp = ProcessStamp.read(pid: pid, procRoot: procRoot.path)
            #expect(stamp == ProcessStamp(pid: pid, startTime: 987_654_321))
            #expect(ProcessStamp.isAlive(ProcessStamp(pid: pid, startTime: 987_654_321), procRoot: procRoot.path) == line.alive)
            #expect(!ProcessStamp.isAlive(ProcessStamp(pid: pid, startTime: 987_654_320), procRoot: procRoot.path))
        }
    }

    @Test(arguments: ["", "4242 (truncated", "4242 (x) S 1 2 3", "4242 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 notanumber"])
    func malformedStatIsNotAStamp(content: String) throws {
        try withTemporaryDirectory { procRoot in
            let directory = procRoot.appendingPathComponent("4242")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(content.utf8).write(to: directory.appendingPathComponent("stat"))
            #expect(ProcessStamp.read(pid: 4242, procRoot: procRoot.path) == nil)
            #expect(!ProcessStamp.isAlive(ProcessStamp(pid: 4242, startTime: 1), procRoot: procRoot.path))
        }
    }
}
