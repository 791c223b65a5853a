import Foundation
import LocationProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ProcessStamp {
    /// The stamp of the calling process.
    ///
    /// On Linux the start time comes from `/proc/self/stat`; where `/proc` is unavailable it is 0, and
    /// ``isAlive(_:procRoot:)`` then falls back to asking the kernel whether the pid exists.
    public static func current(procRoot: String = "/proc") -> ProcessStamp {
        let pid = getpid()
        return read(pid: pid, procRoot: procRoot) ?? ProcessStamp(pid: pid, startTime: 0)
    }

    /// The stamp of a running process, or nil when `/proc/PID/stat` cannot be read or parsed.
    public static func read(pid: Int32, procRoot: String = "/proc") -> ProcessStamp? {
        guard let stat = ProcStat.read(pid: pid, procRoot: procRoot) else { return nil }
        return ProcessStamp(pid: pid, startTime: stat.startTime)
    }

    /// True while the process that `stamp` describes is running.
    ///
    /// False when the pid no longer exists, when it now belongs to another process (its start time
    /// differs: the pid was reused), or when the process has exited but not been reaped yet (a zombie).
    /// A stamp with start time 0 (taken where `/proc` was unavailable) only checks that the pid exists.
    public static func isAlive(_ stamp: ProcessStamp, procRoot: String = "/proc") -> Bool {
        guard stamp.pid > 0 else { return false }
        if let stat = ProcStat.read(pid: stamp.pid, procRoot: procRoot) {
            if stat.isExited { return false }
            return stamp.startTime == 0 || stat.startTime == stamp.startTime
        }
        guard stamp.startTime == 0, !FileManager.default.fileExists(atPath: procRoot) else { return false }
        // No /proc at all: the best we can do is ask whether the pid exists.
        return kill(stamp.pid, 0) == 0 || errno == EPERM
    }
}

/// The fields we need from `/proc/PID/stat` (see proc(5)).
struct ProcStat: Equatable {
    /// Field 3: R, S, D, Z (zombie), X (dead), ...
    var state: Character
    /// Field 22: clock ticks since boot when the process started.
    var startTime: UInt64

    var isExited: Bool { state == "Z" || state == "X" || state == "x" }

    static func read(pid: Int32, procRoot: String) -> ProcStat? {
        let path = "\(procRoot)/\(pid)/stat"
        guard let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1)
        else { return nil }
        return parse(text)
    }

    /// Parses the line `pid (comm) state ppid ...`. The command name may contain spaces and
    /// parentheses, so the fields are counted from the *last* `)`.
    static func parse(_ text: String) -> ProcStat? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(whereSeparator: { $0 == " " || $0 == "\n" })
        // After the comm field come fields 3 (state) ... 52; start time is field 22 → index 19.
        guard fields.count > 19, let state = fields[0].first, fields[0].count == 1,
              let startTime = UInt64(fields[19])
        else { return nil }
        return ProcStat(state: state, startTime: startTime)
    }
}
