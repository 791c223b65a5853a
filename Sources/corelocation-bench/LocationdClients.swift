#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLinuxEpoll
import Foundation
import LocationWire
import NIOCore
import NIOPosix

// `corelocation-bench locationd-clients --socket PATH [--clients N] [--seconds S] --out FILE
//                                       [--threads T] [--io nio|epoll]`
// N apps on one locationd (scripts/bench-locationd.sh): N Unix-socket connections in this process,
// on one event loop group of T threads (default 1: on a 2-core machine the other core is the
// daemon's). Each says hello, checks the welcome authorizes it, starts one continuous stream, and
// records every fix with its receive time. Prints `ready clients=N` once every stream is started
// (the script starts its measured window from that line), then runs S seconds, then writes FILE:
// a TSV `client, fix_ms, recv_ns`, one row per fix received, and prints a summary line.

struct LocationdClientsOptions {
    var socketPath = ""
    var clients = 1000
    var seconds = 30
    var outputPath = ""
    var threads = 1
    /// Connections opened at once: more would overflow the daemon's listen backlog, and a Unix
    /// socket's connect fails (EAGAIN) rather than waits when the backlog is full.
    var connectBatch = 50
    /// `epoll` (EpollClients.swift: one plain epoll thread, the cheaper client) or `nio` (SwiftNIO
    /// channels on `threads` event loops).
    var io = "epoll"

    init(_ arguments: [String]) {
        func positive(_ value: String, _ flag: String) -> Int { wholeNumber(value, flag, minimum: 1, usage: Self.usage) }
        for (flag, value) in flagPairs(arguments, usage: Self.usage) {
            switch flag {
            case "--socket": socketPath = value
            case "--clients": clients = positive(value, flag)
            case "--seconds": seconds = positive(value, flag)
            case "--out": outputPath = value
            case "--threads": threads = positive(value, flag)
            case "--connect-batch": connectBatch = positive(value, flag)
            case "--io" where value == "nio" || value == "epoll": io = value
            default: Self.usage("unknown option \(flag)")
            }
        }
        if socketPath.isEmpty || outputPath.isEmpty { Self.usage("--socket and --out are required") }
    }

    static func usage(_ message: String) -> Never {
        print("corelocation-bench: \(message)\nusage: corelocation-bench locationd-clients --socket PATH "
              + "[--clients N] [--seconds S] --out FILE [--threads T] [--connect-batch B] [--io nio|epoll]")
        exit(2)
    }
}

func runLocationdClients(_ arguments: [String]) -> Never {
    let options = LocationdClientsOptions(arguments)
    #if canImport(Glibc)
    if options.io == "epoll" { runEpollClients(options) }
    #endif
    runNIOClients(options)
}

/// What every client recorded, and the process's CPU over the measured window.
struct ClientsRun {
    var clients: [(deliveries: [Delivery], anomalies: ClientAnomalies)]
    var window: CPUWindow
}

/// Process CPU (user + system) between `ready` and the end of the run, to report the clients' own
/// cost per fix: it is measurement overhead on the daemon's cores.
struct CPUWindow {
    var startNanoseconds: Int64
    var startCPU: Int64
    var endNanoseconds: Int64 = 0
    var endCPU: Int64 = 0

    static func start() -> CPUWindow {
        CPUWindow(startNanoseconds: realtimeNanoseconds(), startCPU: Self.processCPUMicroseconds())
    }

    mutating func end() {
        endNanoseconds = realtimeNanoseconds()
        endCPU = Self.processCPUMicroseconds()
    }

    static func processCPUMicroseconds() -> Int64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return (Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec)) * 1_000_000
            + Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec)
    }
}

private func runNIOClients(_ options: LocationdClientsOptions) -> Never {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: options.threads)
    // 10 Hz plus slack for the connection phase.
    let expectedFixes = options.seconds * 10 + 100

    var channels: [any Channel] = []
    channels.reserveCapacity(options.clients)
    do {
        var next = 0
        while next < options.clients {
            let batch = next..<min(next + options.connectBatch, options.clients)
            var welcomes: [EventLoopFuture<Void>] = []
            for _ in batch {
                let (channel, welcomed) = try connectClient(
                    to: options.socketPath, on: group.next(), expectedFixes: expectedFixes)
                channels.append(channel)
                welcomes.append(welcomed)
            }
            for welcome in welcomes { try welcome.wait() }
            next = batch.upperBound
        }
    } catch {
        print("corelocation-bench: connecting \(options.clients) clients (\(channels.count) connected): \(error)")
        exit(1)
    }
    var window = announceReady(clients: channels.count)
    sleep(UInt32(options.seconds))
    window.end()

    var results: [(deliveries: [Delivery], anomalies: ClientAnomalies)] = []
    for channel in channels {
        results.append(try! channel.eventLoop.submit {
            let handler = try channel.pipeline.syncOperations.handler(type: FanOutClientHandler.self)
            return (handler.deliveries, handler.anomalies)
        }.wait())
    }
    for channel in channels { channel.close(promise: nil) }
    try? group.syncShutdownGracefully()
    finishLocationdClients(options, ClientsRun(clients: results, window: window))
}

#if canImport(Glibc)
private func runEpollClients(_ options: LocationdClientsOptions) -> Never {
    let expectedFixes = options.seconds * 10 + 100
    var clients: [EpollClient] = []
    clients.reserveCapacity(options.clients)
    let loop: EpollClientLoop
    do {
        loop = try EpollClientLoop()
        for _ in 0..<options.clients {
            let client = try connectEpollClient(to: options.socketPath, expectedFixes: expectedFixes)
            clients.append(client)
            try loop.register(client)
        }
    } catch {
        print("corelocation-bench: connecting \(options.clients) clients (\(clients.count) connected): \(error)")
        exit(1)
    }
    var window = announceReady(clients: clients.count)
    sleep(UInt32(options.seconds))
    window.end()
    loop.stop()
    let results = clients.map { (deliveries: $0.deliveries, anomalies: $0.anomalies) }
    for client in clients { close(client.fd) }
    finishLocationdClients(options, ClientsRun(clients: results, window: window))
}
#endif

/// Prints the line the script starts its measured window from, and starts the CPU window.
private func announceReady(clients: Int) -> CPUWindow {
    let window = CPUWindow.start()
    print("ready clients=\(clients) at_ns=\(window.startNanoseconds)")
    fflush(nil)  // the script waits for this line
    return window
}

/// Writes the TSV and the summary, and exits 1 if any client failed or was disconnected.
private func finishLocationdClients(_ options: LocationdClientsOptions, _ run: ClientsRun) -> Never {
    let expectedFixes = options.seconds * 10 + 100
    var table = "client\tfix_ms\trecv_ns\n"
    table.reserveCapacity(options.clients * expectedFixes * 34)
    var delivered = 0, inWindow = 0, disconnected = 0, otherEvents = 0
    var failures: [String: Int] = [:]
    for (number, client) in run.clients.enumerated() {
        for delivery in client.deliveries {
            table += "\(number)\t\(delivery.fixMilliseconds)\t\(delivery.receivedNanoseconds)\n"
            if delivery.receivedNanoseconds >= run.window.startNanoseconds,
               delivery.receivedNanoseconds <= run.window.endNanoseconds { inWindow += 1 }
        }
        delivered += client.deliveries.count
        if client.anomalies.disconnected { disconnected += 1 }
        otherEvents += client.anomalies.otherEvents
        for failure in client.anomalies.failures { failures[failure, default: 0] += 1 }
    }
    guard FileManager.default.createFile(atPath: options.outputPath, contents: Data(table.utf8)) else {
        print("corelocation-bench: cannot write \(options.outputPath)")
        exit(1)
    }
    for (failure, count) in failures.sorted(by: { $0.key < $1.key }) {
        print("corelocation-bench: \(count) client(s): \(failure)")
    }
    let cpu = run.window.endCPU - run.window.startCPU
    let perFix = inWindow > 0 ? Double(cpu) / Double(inWindow) : 0
    print("RESULT impl=locationd-clients io=\(options.io) clients=\(run.clients.count) fixes=\(delivered) "
          + "disconnected=\(disconnected) other_events=\(otherEvents) seconds=\(options.seconds) "
          + "window_fixes=\(inWindow) window_cpu_ms=\(cpu / 1000) "
          + "cpu_us_per_fix=\(String(format: "%.2f", perFix))")
    exit(failures.isEmpty && disconnected == 0 ? 0 : 1)
}

/// Connects one client on `loop`; the future succeeds once the daemon has welcomed and authorized it
/// and its stream is requested, and fails if that does not happen within 15 s.
private func connectClient(
    to socketPath: String, on loop: any EventLoop, expectedFixes: Int
) throws -> (any Channel, EventLoopFuture<Void>) {
    let welcomed = loop.makePromise(of: Void.self)
    let timeout = loop.scheduleTask(in: .seconds(15)) {
        welcomed.fail(BenchClientError("no welcome within 15 s"))
    }
    welcomed.futureResult.whenComplete { _ in timeout.cancel() }
    let channel = try ClientBootstrap(group: loop)
        .channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    FanOutClientHandler(welcomed: welcomed, expectedFixes: expectedFixes))
            }
        }
        .connect(unixDomainSocketPath: socketPath)
        .wait()
    return (channel, welcomed.futureResult)
}
