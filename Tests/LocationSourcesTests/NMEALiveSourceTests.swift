import Foundation
import LocationCore
import LocationNMEA
import LocationProtocol
import TestSupport
import Testing
@testable import LocationSources
#if canImport(Glibc)
import Glibc
#endif

/// Live NMEA inputs on the real-time loop: a serial device (a pseudo-terminal), TCP, a pipe.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct NMEALiveSourceTests {
    static let backoff = Backoff(initial: 0.2, maximum: 0.4)

    @Test func readsASerialDeviceInRawModeAtTheGivenBaudRate() async throws {
        let pty = try PseudoTerminal()
        let recorder = LiveRecorder()
        let source = try SourceSpec("nmea:\(pty.path)?baud=9600").makeSource()
        #expect((source as? NMEASource)?.input == .device(path: pty.path, baud: 9600))
        recorder.start(source)
        #expect(await recorder.wait(timeout: 5) { _ in pty.isRaw(baud: speed_t(B9600)) }, "8N1 raw at 9600")
        pty.write(nmeaEpoch(time: "120000.00") + nmeaEpoch(time: "120001.00", lon: "00741.22000"))
        pty.write(nmeaEpoch(time: "120002.00", lon: "00741.23000"))
        #expect(await recorder.wait { $0.fixes.count >= 2 })
        recorder.stop(source)
        let fix = try #require(recorder.fixes.first)
        #expect(fix.timestamp == Date(timeIntervalSince1970: 1_749_902_400), "the receiver's UTC time, 2025-06-14T12:00:00Z")
        #expect(abs(fix.latitude - (45 + 4.21872 / 60)) < 1e-9 && !fix.isSimulated && fix.isProducedByAccessory)
        #expect(abs(fix.speed - 20 * 0.514444) < 0.01 && fix.course == 90)
        #expect(recorder.emissionsOutsideLoop == 0)
    }

    @Test func aDeviceThatDisappearsIsNoFixThenReopened() async throws {
        // The device is reached through a symbolic link of the test's own (like /dev/serial/by-id/…):
        // unplugging removes it, so the source cannot reopen a pseudo-terminal that a test running in
        // parallel has been given the freed number of — and read that test's data.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("gps0").path
        var pty = try PseudoTerminal()
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: pty.path)
        let recorder = LiveRecorder()
        let source = NMEASource(input: .device(path: path, baud: 4800), backoff: Self.backoff)
        recorder.start(source)
        #expect(await recorder.wait(timeout: 5) { _ in pty.isRaw(baud: speed_t(B4800)) })
        pty.write(nmeaEpoch(time: "120000.00") + nmeaEpoch(time: "120001.00"))
        #expect(await recorder.wait { $0.fixes.count >= 1 })

        try FileManager.default.removeItem(atPath: path) // unplugged
        pty.close()
        #expect(await recorder.wait { !$0.noFixReasons.isEmpty })
        #expect(recorder.noFixReasons.first?.hasPrefix(path) == true, "\(recorder.noFixReasons)")
        #expect(await recorder.wait(timeout: 3) { $0.noFixReasons.contains { $0.contains("No such file") } },
                "reopening fails while it is gone: \(recorder.noFixReasons)")

        // Plugged in again.
        pty = try PseudoTerminal()
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: pty.path)
        let before = recorder.fixes.count
        #expect(await recorder.wait(timeout: 5) { _ in pty.isRaw(baud: speed_t(B4800)) }, "reopened")
        pty.write(nmeaEpoch(time: "120010.00") + nmeaEpoch(time: "120011.00"))
        #expect(await recorder.wait { $0.fixes.count > before }, "fixes again")
        recorder.stop(source)
        let count = recorder.count
        #expect(await !recorder.wait(timeout: 0.5) { $0.count != count }, "nothing after stop")
    }

    @Test func readsTCPAndReconnectsWhenTheConnectionDrops() async throws {
        let server = try LoopbackServer()
        let recorder = LiveRecorder()
        let source = try SourceSpec("nmea:tcp://127.0.0.1:\(server.port)").makeSource()
        recorder.start(source)
        var connection = try #require(server.accept())
        connection.send(nmeaEpoch(time: "120000.00") + nmeaEpoch(time: "120001.00"))
        // A sentence split across two writes.
        let next = nmeaEpoch(time: "120002.00")
        connection.send(String(next.prefix(20)))
        try await Task.sleep(for: .milliseconds(50))
        connection.send(String(next.dropFirst(20)) + nmeaEpoch(time: "120003.00"))
        #expect(await recorder.wait { $0.fixes.count >= 3 })

        connection.close()
        #expect(await recorder.wait { !$0.noFixReasons.isEmpty })
        #expect(recorder.noFixReasons.first == "tcp 127.0.0.1:\(server.port): closed")
        connection = try #require(server.accept(timeout: 3), "reconnects by itself")
        connection.send(nmeaEpoch(time: "120010.00") + nmeaEpoch(time: "120011.00") + nmeaEpoch(time: "120012.00"))
        #expect(await recorder.wait(timeout: 3) { $0.fixes.last?.timestamp == Date(timeIntervalSince1970: 1_749_902_412) }, "\(recorder.events)")
        recorder.stop(source)
        #expect(connection.secondsUntilClosed(timeout: 1) != nil, "stop closes the socket")
        #expect(recorder.emissionsOutsideLoop == 0)
    }

    @Test func withoutADateTheTimeOfDayIsToday() async throws {
        let server = try LoopbackServer()
        let recorder = LiveRecorder()
        let source = NMEASource(input: .tcp(host: "127.0.0.1", port: server.port))
        recorder.start(source)
        let connection = try #require(server.accept())
        // GGA only: no date ever. Times of day around now, in UTC.
        let now = Date().timeIntervalSince1970
        for offset in [-2.0, -1.0, 0.0] {
            let seconds = (now + offset).truncatingRemainder(dividingBy: 86_400).rounded(.down)
            let time = String(format: "%02d%02d%02d.00", Int(seconds) / 3600, Int(seconds) % 3600 / 60, Int(seconds) % 60)
            connection.send(nmeaSentence("GPGGA,\(time),4504.21872,N,00741.21136,E,1,09,0.90,245.3,M,47.6,M,,"))
        }
        #expect(await recorder.wait { $0.fixes.count >= 2 })
        recorder.stop(source)
        let fix = try #require(recorder.fixes.first)
        #expect(abs(fix.timestamp.timeIntervalSinceNow) < 10, "\(fix.timestamp)")
    }

    @Test func aSilentDeviceIsNoFix() async throws {
        let pty = try PseudoTerminal()
        let recorder = LiveRecorder()
        let source = NMEASource(input: .device(path: pty.path, baud: 4800), silenceTimeout: 0.3)
        recorder.start(source)
        #expect(await recorder.wait { $0.noFixReasons.contains { $0.hasPrefix("no data from \(pty.path)") } })
        pty.write(String(repeating: "\u{7F}\u{03}garbage at the wrong baud rate", count: 20))
        #expect(await recorder.wait { $0.noFixReasons.contains { $0.contains("wrong baud rate?") } })
        recorder.stop(source)
    }

    /// The path standard input takes (a borrowed, blocking descriptor whose end is final), on a pipe.
    @Test func aPipeLikeStandardInputEndsTheSource() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let opener = BorrowedDescriptorOpener(fd: fds[0])
        let recorder = LiveRecorder()
        let reader = NMEAStreamReader(opener: opener, name: "nmea:test-pipe", decoderOptions: .init(),
                                      backoff: Self.backoff, silenceTimeout: 5)
        recorder.loop.sync { reader.start(on: recorder.loop, emit: recorder.emit) }
        let text = Array((nmeaEpoch(time: "120000.00") + nmeaEpoch(time: "120001.00") + nmeaEpoch(time: "120002.00")).utf8)
        _ = text.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        #expect(await recorder.wait(timeout: 3) { $0.events.last == .finished }, "\(recorder.events)")
        #expect(recorder.fixes.count == 3, "the last epoch is completed at the end")
        recorder.loop.sync { reader.start(on: recorder.loop, emit: recorder.emit) }
        #expect(await recorder.wait { $0.events.filter { $0 == .finished }.count == 2 }, "its end is final")
    }
}

/// Opens a descriptor the test made (a pipe), as `StandardInputOpener` does standard input.
struct BorrowedDescriptorOpener: StreamOpener {
    let fd: Int32
    var label: String { "test pipe" }
    var reopensAfterEnd: Bool { false }
    func open(_ cancellation: OpenCancellation) throws(StreamError) -> OpenedDescriptor {
        OpenedDescriptor(fd: fd, isSocket: false, isNonBlocking: false)
    }
}
