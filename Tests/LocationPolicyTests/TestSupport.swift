import Foundation
import LocationCore
import LocationPolicy
import LocationProtocol
import Logging
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `stat`'s permission bits of a path.
func permissions(of path: String) -> UInt32? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return UInt32(st.st_mode) & 0o7777
}

/// `stat`'s modification time of a path in nanoseconds (a `Date` cannot tell 1 ns apart).
func modificationNanoseconds(of path: String) -> Int64? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
}

/// A record for store tests.
func record(_ name: String, status: AuthorizationStatus = .authorizedWhenInUse) -> AppRecord {
    AppRecord(
        status: status, displayName: name, executablePath: "/usr/bin/\(name)",
        updated: Date(timeIntervalSince1970: 1_700_000_000.125))
}

func identity(_ id: String = "com.example.weather", name: String = "Weather") -> AppIdentity {
    AppIdentity(id: id, displayName: name, executablePath: "/opt/weather/bin/weather")
}

func request(
    _ kind: PromptRequest.Kind = .initial, app: AppIdentity = identity(), preciseByDefault: Bool = true,
    usage: String = "Shows the forecast where you are."
) -> PromptRequest {
    PromptRequest(
        app: app, kind: kind, level: kind == .initial ? .whenInUse : .always, usageDescription: usage,
        preciseByDefault: preciseByDefault)
}

/// A log handler that keeps what it is given, to check that warnings are logged.
struct CapturingLogHandler: LogHandler {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    final class Box: Sendable {
        let entries = Locked([Entry]())
        var all: [Entry] { entries.withLock { $0 } }
    }

    let box: Box
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        box.entries.withLock {
            $0.append(Entry(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:]))
        }
    }

    static func logger() -> (Logger, Box) {
        let box = Box()
        return (Logger(label: "test", factory: { _ in CapturingLogHandler(box: box) }), box)
    }
}
