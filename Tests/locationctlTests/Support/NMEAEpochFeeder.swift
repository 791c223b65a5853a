import Foundation
import LocationCore
#if canImport(Glibc)
import Glibc
#endif

/// A 10 Hz NMEA receiver on 127.0.0.1 (what `scripts/nmea-feeder.py` is to the benchmark): every
/// connected consumer gets GGA + RMC per epoch in one write, the fix time being the tick. Remembers
/// each epoch's fix time (ms since 1970) and the wall time just before its first write.
final class NMEAEpochFeeder: @unchecked Sendable {
    let port: Int
    /// Fix time (ms) → send time (ns, `CLOCK_REALTIME`).
    var sent: [Int64: Int64] { state.withLock { $0.sent } }

    private let listener: Int32
    private let state = Locked<(sent: [Int64: Int64], stopping: Bool)>(([:], false))
    private let finished = DispatchSemaphore(value: 0)

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw FeederError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            Glibc.close(listener)
            throw FeederError(description: "bind/listen: \(String(cString: strerror(code)))")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in run() }.start()
    }

    func stop() {
        state.withLock { $0.stopping = true }
        finished.wait()
    }

    private func run() {
        var consumers: [Int32] = []
        var tick = Self.now() / 1_000_000 / 100 * 100 + 100
        while !state.withLock({ $0.stopping }) {
            // Accept consumers until the tick.
            while true {
                let wait = tick - Self.now() / 1_000_000
                if wait <= 0 { break }
                var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, Int32(wait)) == 1 {
                    let consumer = accept(listener, nil, nil)
                    if consumer >= 0 { consumers.append(consumer) }
                }
            }
            let epoch = Array(Self.epoch(atMilliseconds: tick).utf8)
            var firstSend: Int64?
            consumers.removeAll { consumer in
                firstSend = firstSend ?? Self.now()
                let written = epoch.withUnsafeBytes { send(consumer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written != epoch.count { Glibc.close(consumer) }
                return written != epoch.count
            }
            if let firstSend { state.withLock { $0.sent[tick] = firstSend } }
            tick += 100
        }
        for consumer in consumers { Glibc.close(consumer) }
        Glibc.close(listener)
        finished.signal()
    }

    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// GGA + RMC at a fixed point, stamped `milliseconds` (a multiple of 10: NMEA has hundredths).
    static func epoch(atMilliseconds milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var utc = tm()
        gmtime_r(&seconds, &utc)
        let time = String(format: "%02d%02d%02d.%02d", utc.tm_hour, utc.tm_min, utc.tm_sec, Int(milliseconds % 1000 / 10))
        let date = String(format: "%02d%02d%02d", utc.tm_mday, utc.tm_mon + 1, utc.tm_year % 100)
        return sentence("GPGGA,\(time),4851.39600,N,00221.13200,E,1,10,0.9,35.0,M,47.0,M,,")
            + sentence("GPRMC,\(time),A,4851.39600,N,00221.13200,E,0.00,0.0,\(date),,,A")
    }

    private static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$\(body)*\(String(format: "%02X", checksum))\r\n"
    }
}

struct FeederError: Error, CustomStringConvertible {
    var description: String
}
