import Foundation
import LocationCore
import TestSupport
import Testing
@testable import LocationSources
#if canImport(Glibc)
import Glibc
#endif

/// `nmea:DEVICE?standby=mtk|ublox`: the receiver is commanded to standby when the engine stops the
/// source and woken when it starts it again; the bytes on the line are exactly the documented ones.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ReceiverStandbyTests {
    /// UBX-RXM-PMREQ, 16-byte payload: duration 0, flags backup|force, wake-up on UART RX.
    static let ubloxStandby: [UInt8] = [
        0xB5, 0x62, 0x02, 0x41, 0x10, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
        0x61, 0x6B,
    ]

    @Test func theCommandsAreTheDocumentedOnes() {
        // The example in the MediaTek command references, checksum included.
        #expect(ReceiverStandby.mtk.standbyCommand == Array("$PMTK161,0*28\r\n".utf8))
        #expect(ReceiverStandby.nmeaSentence("PMTK225,0") == "$PMTK225,0*2B\r\n", "another documented example")
        #expect(ReceiverStandby.ublox.standbyCommand == Self.ubloxStandby)
        #expect(ReceiverStandby.mtk.wakeBytes == [0x0D, 0x0A] && ReceiverStandby.ublox.wakeBytes == [0xFF])
    }

    /// Reads what the source wrote to the line, until `count` bytes or the timeout.
    static func read(_ pty: PseudoTerminal, count: Int, timeout: Double = 5) -> [UInt8] {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 256)
        while bytes.count < count, Date() < deadline {
            guard waitReadable(pty.master, timeout: deadline.timeIntervalSinceNow) else { break }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(pty.master, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }

    @Test(arguments: ReceiverStandby.allCases)
    func aStoppedReceiverIsPutToStandbyAndWokenWhenStartedAgain(_ kind: ReceiverStandby) async throws {
        let pty = try PseudoTerminal()
        // The test holds the device open too, so the line keeps what the source writes between its own opens.
        let holder = Glibc.open(pty.path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        try #require(holder >= 0)
        defer { Glibc.close(holder) }
        let recorder = LiveRecorder()
        let source = try #require(try SourceSpec("nmea:\(pty.path)?baud=9600&standby=\(kind.rawValue)").makeSource() as? NMEASource)
        #expect(source.standby == kind)

        recorder.start(source)
        #expect(await recorder.wait(timeout: 5) { _ in pty.isRaw(baud: speed_t(B9600)) })
        pty.write(nmeaEpoch(time: "120000.00") + nmeaEpoch(time: "120001.00"))
        #expect(await recorder.wait { !$0.fixes.isEmpty })
        #expect(!waitReadable(pty.master, timeout: 0.2), "nothing is written to a receiver in use")

        recorder.stop(source)
        #expect(Self.read(pty, count: kind.standbyCommand.count) == kind.standbyCommand)

        recorder.start(source)
        #expect(Self.read(pty, count: kind.wakeBytes.count) == kind.wakeBytes)
        pty.write(nmeaEpoch(time: "120010.00") + nmeaEpoch(time: "120011.00"))
        #expect(await recorder.wait { $0.fixes.count >= 2 }, "the woken receiver is read again")

        recorder.stop(source)
        #expect(Self.read(pty, count: kind.standbyCommand.count) == kind.standbyCommand)
        #expect(!waitReadable(pty.master, timeout: 0.2), "one command per stop, nothing else")
    }

    @Test func aReceiverWithoutAStandbyKindIsNeverWrittenTo() async throws {
        let pty = try PseudoTerminal()
        let holder = Glibc.open(pty.path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        try #require(holder >= 0)
        defer { Glibc.close(holder) }
        let recorder = LiveRecorder()
        let source = try SourceSpec("nmea:\(pty.path)").makeSource()
        recorder.start(source)
        #expect(await recorder.wait(timeout: 5) { _ in pty.isRaw(baud: speed_t(B4800)) })
        recorder.stop(source)
        recorder.start(source)
        recorder.stop(source)
        #expect(!waitReadable(pty.master, timeout: 0.3))
    }
}
