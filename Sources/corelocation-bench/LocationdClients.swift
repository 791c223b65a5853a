#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LocationWire
import NIOCore
import NIOPosix

// `corelocation-bench locationd-clients --socket PATH [--clients N] [--seconds S] --out FILE
//                                       [--threads T]`
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

    init(_ arguments: [String]) {
        var it = arguments.makeIterator()
        while let flag = it.next() {
            guard let value = it.next() else { Self.usage("missing value for \(flag)") }
            switch flag {
            case "--socket": socketPath = value
            case "--clients": clients = Self.positive(value, flag)
            case "--seconds": seconds = Self.positive(value, flag)
            case "--out": outputPath = value
            case "--threads": threads = Self.positive(value, flag)
            case "--connect-batch": connectBatch = Self.positive(value, flag)
            default: Self.usage("unknown option \(flag)")
            }
        }
        if socketPath.isEmpty || outputPath.isEmpty { Self.usage("--socket and --out are required") }
    }

    static func positive(_ value: String, _ flag: String) -> Int {
        guard let number = Int(value), number > 0 else { usage("bad value \(value) for \(flag)") }
        return number
    }

    static func usage(_ message: String) -> Never {
        print("corelocation-bench: \(message)\nusage: corelocation-bench locationd-clients --socket PATH "
              + "[--clients N] [--seconds S] --out FILE [--threads T] [--connect-batch B]")
        exit(2)
    }
}

func runLocationdClients(_ arguments: [String]) -> Never {
    let options = LocationdClientsOptions(arguments)
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
    print("ready clients=\(channels.count) at_ns=\(realtimeNanoseconds())")
    fflush(nil)  // the script waits for this line

    sleep(UInt32(options.seconds))

    var table = "client\tfix_ms\trecv_ns\n"
    table.reserveCapacity(options.clients * expectedFixes * 34)
    var delivered = 0, disconnected = 0, otherEvents = 0
    var failures: [String: Int] = [:]
    for (number, channel) in channels.enumerated() {
        let (deliveries, anomalies) = try! channel.eventLoop.submit {
            let handler = try channel.pipeline.syncOperations.handler(type: FanOutClientHandler.self)
            return (handler.deliveries, handler.anomalies)
        }.wait()
        for delivery in deliveries {
            table += "\(number)\t\(delivery.fixMilliseconds)\t\(delivery.receivedNanoseconds)\n"
        }
        delivered += deliveries.count
        if anomalies.disconnected { disconnected += 1 }
        otherEvents += anomalies.otherEvents
        for failure in anomalies.failures { failures[failure, default: 0] += 1 }
    }
    for channel in channels { channel.close(promise: nil) }
    try? group.syncShutdownGracefully()

    guard FileManager.default.createFile(atPath: options.outputPath, contents: Data(table.utf8)) else {
        print("corelocation-bench: cannot write \(options.outputPath)")
        exit(1)
    }
    for (failure, count) in failures.sorted(by: { $0.key < $1.key }) {
        print("corelocation-bench: \(count) client(s): \(failure)")
    }
    print("RESULT impl=locationd-clients clients=\(channels.count) fixes=\(delivered) "
          + "disconnected=\(disconnected) other_events=\(otherEvents) seconds=\(options.seconds)")
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
