import Foundation
import Logging

/// Counts what a live source threw away (over-long lines, bytes outside any sentence) and says so
/// in the log at most once per `interval`: a flooding peer shows up in the log with totals, never as
/// silence, and never as a log line per discarded line. What is discarded within an interval is
/// told in the next message.
struct DiscardReport: Sendable {
    /// What to log: the totals since the last message, and since the start.
    struct Summary: Sendable, Equatable {
        var lines: Int
        var bytes: Int
        var totalLines: Int
        var totalBytes: Int
    }

    /// Seconds between two messages.
    let interval: TimeInterval
    private(set) var totalLines = 0
    private(set) var totalBytes = 0
    private var pendingLines = 0
    private var pendingBytes = 0
    private var lastReport: Date?

    init(interval: TimeInterval = 10) {
        precondition(interval > 0)
        self.interval = interval
    }

    /// Adds what was discarded at `now`; a summary when it is time to log one.
    mutating func discarded(lines: Int, bytes: Int, at now: Date) -> Summary? {
        guard lines > 0 || bytes > 0 else { return nil }
        totalLines += lines
        totalBytes += bytes
        pendingLines += lines
        pendingBytes += bytes
        if let lastReport, now.timeIntervalSince(lastReport) < interval { return nil }
        lastReport = now
        defer { pendingLines = 0; pendingBytes = 0 }
        return Summary(lines: pendingLines, bytes: pendingBytes, totalLines: totalLines, totalBytes: totalBytes)
    }
}

extension DiscardReport.Summary {
    /// Logs it for the source `name`: a warning when whole lines were thrown away (the peer broke the
    /// protocol), else at `info` (bytes between sentences: noise, or binary messages a receiver mixes
    /// in, which are not a fault).
    func log(source name: String, what: String) {
        sourcesLogger.log(level: lines > 0 ? .warning : .info, "discarded input", metadata: [
            "source": "\(name)", "what": "\(what)",
            "lines": "\(lines)", "bytes": "\(bytes)", "total lines": "\(totalLines)", "total bytes": "\(totalBytes)",
        ])
    }
}
