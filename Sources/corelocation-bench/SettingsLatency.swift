import Foundation
import LocationDaemonClient
import LocationProtocol
import Synchronization

// `corelocation-bench settings-latency --socket PATH [--changes N] [--warmup W]`
// How long a settings change made through locationd takes to reach a running app
// (scripts/bench-settings.sh). This process is the app: one connection, as CoreLocation keeps one,
// waiting for its authorization events. For each change it does what `locationctl revoke` and
// `locationctl grant` do — a new connection, the change, the daemon's answer — alternately, and
// times from the start of that command to the app's `authorizationChanged` ("told") and to the
// command's answer ("answered"). The daemon must know this executable (it is the app's id) and
// run with the calling user's store. Prints one RESULT line with percentiles in milliseconds.

struct SettingsLatencyOptions {
    var socketPath = ""
    var changes = 200
    var warmup = 10

    init(_ arguments: [String]) {
        for (flag, value) in flagPairs(arguments, usage: Self.usage) {
            switch flag {
            case "--socket": socketPath = value
            case "--changes": changes = wholeNumber(value, flag, minimum: 1, usage: Self.usage)
            case "--warmup": warmup = wholeNumber(value, flag, minimum: 0, usage: Self.usage)
            default: Self.usage("unknown option \(flag)")
            }
        }
        if socketPath.isEmpty { Self.usage("--socket is required") }
    }

    static func usage(_ message: String) -> Never {
        print("corelocation-bench: \(message)\nusage: corelocation-bench settings-latency --socket PATH "
              + "[--changes N] [--warmup W]")
        exit(2)
    }
}

/// The app's side: the authorizations it was told, each with its arrival time.
private final class AuthorizationInbox: Sendable {
    private let received = Mutex<[(EffectiveAuthorization, ContinuousClock.Instant)]>([])
    private let arrival = DispatchSemaphore(value: 0)

    func record(_ event: ServiceEvent) {
        guard case .authorizationChanged(let authorization) = event else { return }
        let now = ContinuousClock.now
        received.withLock { $0.append((authorization, now)) }
        arrival.signal()
    }

    /// When `authorization` arrived, waiting up to `timeout` for it; earlier arrivals are dropped.
    func waitFor(_ authorization: EffectiveAuthorization, timeout: TimeInterval) -> ContinuousClock.Instant? {
        let deadline = DispatchTime.now() + timeout
        while true {
            let found = received.withLock { list -> ContinuousClock.Instant? in
                guard let index = list.firstIndex(where: { $0.0 == authorization }) else { return nil }
                let time = list[index].1
                list.removeFirst(index + 1)
                return time
            }
            if let found { return found }
            if arrival.wait(timeout: deadline) == .timedOut { return nil }
        }
    }
}

func runSettingsLatency(_ arguments: [String]) -> Never {
    let options = SettingsLatencyOptions(arguments)
    let app = Bundle.main.executablePath.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } ?? ""
    let inbox = AuthorizationInbox()
    let provider = DaemonServiceProvider(socketPath: options.socketPath, handshakeTimeout: 5)
    let connection = provider.connect(
        app: AppIdentity(id: app, displayName: "corelocation-bench", executablePath: app), info: AppInfo(),
        process: ProcessStamp(pid: getpid(), startTime: 0), events: inbox.record)
    defer { connection.close() }

    let granted = EffectiveAuthorization(status: .authorizedWhenInUse, accuracy: .fullAccuracy, servicesEnabled: true)
    let revoked = EffectiveAuthorization(status: .denied, accuracy: .fullAccuracy, servicesEnabled: true)
    var told: [Double] = [], answered: [Double] = []
    for index in 0..<(options.warmup + options.changes) {
        let revoking = index % 2 == 0
        let change: SettingsChange = revoking ? .revoke(app: app) : .grant(app: app, always: false, approximate: false)
        let started = ContinuousClock.now
        do {
            try DaemonControl.apply(change, socketPath: options.socketPath)
        } catch {
            print("corelocation-bench: change \(index) failed: \(error)")
            exit(1)
        }
        let done = ContinuousClock.now
        guard let arrived = inbox.waitFor(revoking ? revoked : granted, timeout: 10) else {
            print("corelocation-bench: change \(index) (\(revoking ? "revoke" : "grant")) never reached the app "
                  + "(is the daemon running with this user's store, and was \(app) granted?)")
            exit(1)
        }
        guard index >= options.warmup else { continue }
        told.append(seconds(arrived - started) * 1000)
        answered.append(seconds(done - started) * 1000)
    }

    func summary(_ name: String, _ values: [Double]) -> String {
        let sorted = values.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)] }
        return "\(name)_p50_ms=\(fixed(percentile(0.5), 2)) \(name)_p90_ms=\(fixed(percentile(0.9), 2)) "
            + "\(name)_p99_ms=\(fixed(percentile(0.99), 2)) \(name)_max_ms=\(fixed(sorted.last ?? 0, 2))"
    }
    print("RESULT changes=\(told.count) \(summary("told", told)) \(summary("answered", answered))")
    exit(0)
}
