import Foundation
import LocationCore
import LocationNMEA
import TestSupport
import Testing
@testable import LocationSources
#if canImport(Glibc)
import Glibc
#endif

/// Live sources against a peer on loopback that floods them while the engine loop is slow: the
/// process holds at most one chunk for the loop whatever the peer sends (the rest waits in the
/// kernel), valid reports are paced rather than dropped, and an endless line is discarded and counted.
///
/// The loop is a `SteppedLoop` the test runs every 2 ms, with a consumer that takes 100 µs per fix:
/// every chunk read is one job on that loop, so the loop's queue is what reading ahead would fill.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct FloodTests {
    enum Receiver: String, CaseIterable, Sendable {
        case nmeaTCP, gpsd
    }

    enum Flood: String, CaseIterable, Sendable {
        /// One line that never ends: a start, then printable bytes and never a newline.
        case endlessLine
        /// Well-formed reports, each epoch a new time, as fast as the socket takes them.
        case validReports
    }

    /// A source under test, whichever its type.
    struct Started {
        var stop: @Sendable () -> Void
        var discards: @Sendable () -> DiscardReport
    }

    static let floodSeconds = 1.5

    @Test(arguments: Receiver.allCases, Flood.allCases)
    func aFloodingPeerIsReadOnlyAsFastAsTheLoopConsumes(receiver: Receiver, flood: Flood) async throws {
        // The flood steps its loop for seconds in real time: on a thread of its own, not one of the
        // few the test runner shares with every other test (their timers would starve meanwhile).
        try await Self.flood(receiver, flood)
    }

    static func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    static func flood(_ receiver: Receiver, _ flood: Flood) async throws {
        let server = try LoopbackServer()
        let loop = SteppedLoop()
        let fixes = Locked(0)
        let emit: @Sendable (SourceEvent) -> Void = { event in
            guard case .fix = event else { return }
            fixes.withLock { $0 += 1 }
            usleep(100)
        }
        let source = Self.start(receiver, port: server.port, on: loop, emit: emit)
        let connection = try #require(server.accept(), "the source connects")

        let stopped = Locked(false)
        let sent = Locked<Int?>(nil)
        Thread.detachNewThread {
            var epoch = 0
            let total = connection.flood(stopped: { stopped.withLock { $0 } }) {
                defer { epoch += 100 }
                return Self.payload(receiver, flood, firstEpoch: epoch)
            }
            sent.withLock { $0 = total }
        }

        // Every 2 ms the loop runs what is due; before that, count what waits for it. This steps for
        // seconds in real time: on a thread of its own, not one of the few the test runner shares
        // with every other test (their timers would starve meanwhile).
        let mostPending = await Self.onOwnThread { () -> Int in
            var mostPending = 0
            let deadline = Date().addingTimeInterval(Self.floodSeconds)
            while Date() < deadline {
                mostPending = max(mostPending, loop.pendingCount)
                loop.step()
                usleep(2000)
            }
            loop.execute { source.stop() }
            loop.step()
            stopped.withLock { $0 = true }
            return mostPending
        }
        #expect(await eventually { sent.withLock { $0 } != nil }, "the peer stopped")
        connection.close()

        let bytesSent = try #require(sent.withLock { $0 }, "the peer stopped")
        #expect(bytesSent > 1 << 20, "the peer did flood (\(bytesSent) bytes)")
        // A chunk from the stream, the silence watchdog's check, gpsd's merge flush: nothing more.
        #expect(mostPending <= 3, "jobs waiting for the loop: \(mostPending)")
        let discards = source.discards()
        switch flood {
        case .endlessLine:
            #expect(fixes.withLock { $0 } == 0)
            #expect(discards.totalLines == 1, "one endless line")
            #expect(discards.totalBytes > 1 << 20 && discards.totalBytes <= bytesSent, "\(discards.totalBytes) bytes discarded")
        case .validReports:
            #expect(fixes.withLock { $0 } > 100, "fixes keep coming: \(fixes.withLock { $0 })")
            #expect(discards.totalLines == 0 && discards.totalBytes == 0, "valid input is paced, never dropped")
        }
    }

    static func start(_ receiver: Receiver, port: Int, on loop: SteppedLoop,
                      emit: @escaping @Sendable (SourceEvent) -> Void) -> Started {
        switch receiver {
        case .nmeaTCP:
            let reader = NMEAStreamReader(opener: TCPOpener(host: "127.0.0.1", port: port), name: "flood",
                                          decoderOptions: NMEADecoder.Options(), backoff: Backoff(), silenceTimeout: 5)
            loop.execute { reader.start(on: loop, emit: emit) }
            loop.step()
            return Started(stop: { reader.stop() }, discards: { reader.discards })
        case .gpsd:
            let source = GPSDSource(host: "127.0.0.1", port: port)
            loop.execute { source.start(on: loop, emit: emit) }
            loop.step()
            return Started(stop: { source.stop() }, discards: { source.discards })
        }
    }

    /// What the peer sends next: for an endless line its start, then 64 KiB of `A` every time; for
    /// valid reports 100 epochs, 0.1 s apart, from `firstEpoch`.
    static func payload(_ receiver: Receiver, _ flood: Flood, firstEpoch: Int) -> [UInt8] {
        switch flood {
        case .endlessLine:
            let start = receiver == .nmeaTCP ? "$GPGGA," : #"{"class":"TPV","device":""#
            let filler = [UInt8](repeating: UInt8(ascii: "A"), count: 65_536)
            return firstEpoch == 0 ? Array(start.utf8) + filler : filler
        case .validReports:
            var text = ""
            for epoch in firstEpoch..<(firstEpoch + 100) {
                let tenths = epoch % 864_000
                let (h, m, s) = (tenths / 36_000, tenths / 600 % 60, Double(tenths % 600) / 10)
                switch receiver {
                case .nmeaTCP:
                    text += nmeaEpoch(time: String(format: "%02d%02d%05.2f", h, m, s))
                case .gpsd:
                    text += GPSDSourceTests.tpv(String(format: "2025-06-14T%02d:%02d:%04.1fZ", h, m, s),
                                                extra: GPSDSourceTests.full)
                }
            }
            return Array(text.utf8)
        }
    }
}
