import Dispatch
import Foundation
import LocationCore
import TestSupport
import Testing
@testable import LocationSources
#if canImport(Glibc)
import Glibc
#endif

@Suite struct BackoffTests {
    @Test func doublesUpToTheMaximumAndResets() {
        var backoff = Backoff(initial: 0.5, maximum: 10)
        #expect((0..<7).map { _ in backoff.nextDelay() } == [0.5, 1, 2, 4, 8, 10, 10])
        backoff.reset()
        #expect(backoff.nextDelay() == 0.5)
    }
}

@Suite struct LineSplitterTests {
    @Test func splitsAcrossChunksAndDropsOverlongLines() {
        var splitter = LineSplitter(maximumLength: 10)
        var lines: [String] = []
        let collect: ([UInt8]) -> Void = { lines.append(String(decoding: $0, as: UTF8.self)) }
        splitter.feed(Array("ab".utf8), onLine: collect)
        splitter.feed(Array("c\r\nde\n\nf".utf8), onLine: collect)
        #expect(lines == ["abc", "de", ""])
        splitter.feed(Array("ghijklmnopqrstuvwxyz".utf8), onLine: collect)
        splitter.feed(Array("more\nok\n".utf8), onLine: collect)
        #expect(lines == ["abc", "de", "", "ok"], "the overlong line is dropped whole")
        #expect(splitter.overlongLines == 1)
        #expect(splitter.overlongBytes == 25, "f, g…z and more")
        splitter.feed(Array("partial".utf8), onLine: collect)
        splitter.reset()
        splitter.feed(Array("new\n".utf8), onLine: collect)
        #expect(lines.last == "new")
    }

    @Test func anEndlessLineIsCountedAsOneAndTheNextLineStillComes() {
        var splitter = LineSplitter(maximumLength: 64)
        var lines: [[UInt8]] = []
        let flood = [UInt8](repeating: UInt8(ascii: "A"), count: 4096)
        for _ in 0..<1000 { splitter.feed(flood) { lines.append($0) } }
        splitter.feed(Array("\nnext\n".utf8)) { lines.append($0) }
        #expect(lines == [Array("next".utf8)])
        #expect(splitter.overlongLines == 1)
        #expect(splitter.overlongBytes == 4_096_000)
    }
}

@Suite struct DiscardReportTests {
    @Test func logsAtMostOncePerIntervalWithTotals() {
        var report = DiscardReport(interval: 10)
        let start = Date(timeIntervalSince1970: 1_000_000)
        #expect(report.discarded(lines: 0, bytes: 0, at: start) == nil, "nothing discarded, nothing to say")
        #expect(report.discarded(lines: 1, bytes: 100, at: start)
            == DiscardReport.Summary(lines: 1, bytes: 100, totalLines: 1, totalBytes: 100), "the first at once")
        #expect(report.discarded(lines: 2, bytes: 50, at: start.addingTimeInterval(3)) == nil)
        #expect(report.discarded(lines: 0, bytes: 7, at: start.addingTimeInterval(9.9)) == nil)
        #expect(report.discarded(lines: 1, bytes: 1, at: start.addingTimeInterval(10))
            == DiscardReport.Summary(lines: 3, bytes: 58, totalLines: 4, totalBytes: 158), "then what came since")
        #expect(report.totalLines == 4 && report.totalBytes == 158)
    }
}

@Suite struct SilenceWatchdogTests {
    @Test func firesAfterEachTimeoutOfSilence() {
        let loop = VirtualLoop()
        let fired = Locked<[Date]>([])
        let watchdog = SilenceWatchdog(timeout: 5)
        let start = loop.now
        loop.execute { watchdog.arm(on: loop) { fired.withLock { $0.append(loop.now) } } }
        loop.advance(by: 3)
        watchdog.activity(at: loop.now)
        loop.advance(by: 4.9)
        #expect(fired.withLock { $0.isEmpty }, "activity at 3 s moved the deadline to 8 s")
        loop.advance(by: 10)
        #expect(fired.withLock { $0 } == [start.addingTimeInterval(8), start.addingTimeInterval(13)])
        watchdog.disarm()
        loop.advance(by: 20)
        #expect(fired.withLock { $0.count } == 2)
        #expect(loop.pendingCount == 0)
    }
}

/// An opener scripted by the test: fails, or hands out one end of a socket pair.
final class ScriptedOpener: StreamOpener, @unchecked Sendable {
    enum Outcome { case fail(String), socketPair, blockUntilCancelled }

    private let script = Locked<[Outcome]>([])
    private let peers = Locked<[Int32]>([])
    let attempts = Locked(0)

    var label: String { "scripted" }
    var reopensAfterEnd: Bool { true }

    func then(_ outcomes: Outcome...) { script.withLock { $0 += outcomes } }

    /// The test's end of the socket pair handed out last.
    var peer: Int32? { peers.withLock { $0.last } }

    func open(_ cancellation: OpenCancellation) throws(StreamError) -> OpenedDescriptor {
        attempts.withLock { $0 += 1 }
        let outcome = script.withLock { $0.isEmpty ? .fail("script empty") : $0.removeFirst() }
        switch outcome {
        case .fail(let why):
            throw StreamError(why)
        case .socketPair:
            var fds: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw StreamError("socketpair") }
            _ = makeNonBlocking(fds[0])
            peers.withLock { $0.append(fds[1]) }
            return OpenedDescriptor(fd: fds[0], isSocket: true, isNonBlocking: true)
        case .blockUntilCancelled:
            // Blocks in read(2) on a socket handed to the cancellation, as a slow connect would:
            // cancelling shuts the socket down, which ends the read.
            var fds: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw StreamError("socketpair") }
            defer { close(fds[0]); close(fds[1]) }
            if cancellation.track(socket: fds[0]) {
                var byte: UInt8 = 0
                _ = read(fds[0], &byte, 1)
            }
            _ = cancellation.track(socket: nil)
            throw StreamError("cancelled")
        }
    }
}

/// `ReconnectingStream`: the retry schedule in virtual time (opening happens on a private queue, so
/// the test waits for each attempt's outcome to reach the loop before moving time on).
@Suite struct ReconnectingStreamTests {
    /// An event as recorded: its bytes copied (they are valid only while the handler runs).
    enum Recorded: Sendable, Equatable {
        case connected
        case bytes([UInt8])
        case disconnected(reason: String, retryDelay: Double)
        case ended

        init(_ event: ReconnectingStream.Event) {
            switch event {
            case .connected: self = .connected
            case .bytes(let bytes): self = .bytes(Array(bytes))
            case .disconnected(let reason, let delay): self = .disconnected(reason: reason, retryDelay: delay)
            case .ended: self = .ended
            }
        }
    }

    final class Events: Sendable {
        let list = Locked<[(Date, Recorded)]>([])
        var all: [Recorded] { list.withLock { $0.map(\.1) } }

        func record(_ event: ReconnectingStream.Event, at now: Date) {
            let recorded = Recorded(event)
            list.withLock { $0.append((now, recorded)) }
        }
        var delays: [Double] {
            all.compactMap { if case .disconnected(_, let delay) = $0 { delay } else { nil } }
        }
    }

    /// Runs the loop's due work until `condition` holds (real time passes, virtual time does not).
    func settle(_ loop: VirtualLoop, until condition: () -> Bool) async -> Bool {
        await eventually {
            loop.run()
            return condition()
        }
    }

    @Test func retriesWithBackoffAndResetsAfterData() async throws {
        let loop = VirtualLoop()
        let opener = ScriptedOpener()
        opener.then(.fail("refused"), .fail("refused"), .fail("refused"), .fail("refused"), .socketPair, .fail("refused"))
        let stream = ReconnectingStream(opener: opener, backoff: Backoff(initial: 0.5, maximum: 2))
        let events = Events()
        loop.execute { stream.start(on: loop) { events.record($0, at: loop.now) } }

        for (index, delay) in [0.5, 1, 2, 2].enumerated() {
            #expect(await settle(loop) { events.delays.count == index + 1 })
            #expect(events.delays.last == delay)
            loop.advance(by: delay - 0.01)
            #expect(opener.attempts.withLock { $0 } == index + 1, "no attempt before the delay is over")
            loop.advance(by: 0.01)
        }
        #expect(await settle(loop) { events.all.last == .connected })
        let peer = try #require(opener.peer)
        _ = Array("$GP".utf8).withUnsafeBytes { write(peer, $0.baseAddress, $0.count) }
        #expect(await settle(loop) { events.all.last == .bytes(Array("$GP".utf8)) })
        close(peer)
        #expect(await settle(loop) { events.delays.count == 5 })
        #expect(events.delays.last == 0.5, "data arrived: the backoff starts over")

        loop.execute { stream.stop() }
        loop.run()
        #expect(loop.pendingCount == 0, "stop cancels the pending retry")
        let count = events.all.count
        loop.advance(by: 10)
        #expect(await !eventually(timeout: .milliseconds(50)) {
            loop.run()
            return events.all.count != count
        }, "nothing after stop")
    }

    /// A virtual loop that counts the work handed to it with `execute`, so that a test can wait for
    /// an outcome to arrive even when a `run()` already ran it.
    final class CountingLoop: EngineLoop {
        let inner = VirtualLoop()
        let executed = Locked(0)
        var now: Date { inner.now }
        var inLoop: Bool { inner.inLoop }

        func execute(_ work: @escaping @Sendable () -> Void) {
            inner.execute(work)
            executed.withLock { $0 += 1 }
        }

        @discardableResult
        func schedule(at deadline: Date, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
            inner.schedule(at: deadline, work)
        }
    }

    @Test func stopAbandonsAnOpenInProgressAndClosesAtOnce() async throws {
        let loop = CountingLoop()
        let opener = ScriptedOpener()
        opener.then(.blockUntilCancelled)
        let stream = ReconnectingStream(opener: opener, backoff: Backoff())
        let events = Events()
        loop.execute { stream.start(on: loop) { events.record($0, at: loop.now) } }
        loop.inner.run()
        #expect(await settle(loop.inner) { opener.attempts.withLock { $0 } == 1 })
        loop.execute { stream.stop() }
        loop.inner.run()
        // Besides this test's two, the one piece of work handed to the loop is the abandoned open's
        // outcome (stop cancelled the open): once it is there and run, it must have been dropped.
        #expect(await eventually { loop.executed.withLock { $0 } >= 3 }, "the cancelled open's outcome arrives")
        loop.inner.run()
        #expect(opener.attempts.withLock { $0 } == 1)
        #expect(events.all.isEmpty, "a stopped stream reports nothing, not even the cancelled open")
    }

    @Test func stopWritesTheFarewellThenCloses() async throws {
        let loop = VirtualLoop()
        let opener = ScriptedOpener()
        opener.then(.socketPair)
        let stream = ReconnectingStream(opener: opener, backoff: Backoff())
        let events = Events()
        loop.execute { stream.start(on: loop) { events.record($0, at: loop.now) } }
        #expect(await settle(loop) { events.all == [.connected] })
        let peer = try #require(opener.peer)
        loop.execute { stream.stop(farewell: Array("bye\n".utf8)) }
        loop.run()
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(waitReadable(peer, timeout: 1))
        let count = buffer.withUnsafeMutableBytes { read(peer, $0.baseAddress, $0.count) }
        #expect(String(decoding: buffer[..<max(0, count)], as: UTF8.self) == "bye\n")
        #expect(waitReadable(peer, timeout: 1))
        #expect(buffer.withUnsafeMutableBytes { read(peer, $0.baseAddress, $0.count) } == 0, "then the end")
        close(peer)
    }
}

/// `ByteStream` against a fast producer and a slow consumer: nothing lost, reordered or piled up.
@Suite struct ByteStreamTests {
    @Test(.timeLimit(.minutes(2)))
    func readsOneChunkAtATimeAtTheConsumersPace() async throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        _ = makeNonBlocking(fds[0])
        let total = 6 << 20
        let received = Locked<[UInt8]>([])
        /// Chunks handed on and not yet consumed, and the most there ever were.
        let outstanding = Locked((now: 0, most: 0))
        let mostBytesInFlight = Locked(0)
        let delivered = Locked(0)
        let ended = Locked(false)
        let consumer = DispatchQueue(label: "test.consumer")
        let streamBox = Locked<ByteStream?>(nil)
        let stream = ByteStream(OpenedDescriptor(fd: fds[0], isSocket: true, isNonBlocking: true),
                                queue: DispatchQueue(label: "test.bytestream")) { event in
            switch event {
            case .bytes(let chunk):
                outstanding.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                let first = delivered.withLock { delivered in
                    delivered += 1
                    return delivered == 1
                }
                consumer.async {
                    // A slow consumer, reading the chunk where the stream left it, and stuck for a
                    // while on the first one: time enough for the producer to fill the socket.
                    usleep(first ? 100_000 : 200)
                    received.withLock { received in chunk.withUnsafeBytes { received += $0 } }
                    guard let stream = streamBox.withLock({ $0 }) else { return }
                    mostBytesInFlight.withLock { $0 = max($0, stream.bytesInFlight) }
                    outstanding.withLock { $0.now -= 1 }
                    stream.consumed()
                }
            case .end:
                consumer.async { ended.withLock { $0 = true } }
            }
        }
        streamBox.withLock { $0 = stream }
        let writer = fds[1]
        Thread.detachNewThread {
            var sent = 0
            while sent < total {
                let chunk = (0..<min(65_536, total - sent)).map { UInt8(truncatingIfNeeded: (sent + $0) % 251) }
                var offset = 0
                while offset < chunk.count {
                    let n = chunk[offset...].withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                    if n > 0 { offset += n }
                }
                sent += chunk.count
            }
            close(writer)
        }
        #expect(await eventually(timeout: .seconds(50)) { ended.withLock { $0 } }, "the stream reached its end")
        let bytes = received.withLock { $0 }
        #expect(bytes.count == total)
        #expect(bytes.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset % 251) }, "in order")
        #expect(outstanding.withLock { $0.most } == 1, "never a second chunk before the first was consumed")
        #expect(mostBytesInFlight.withLock { $0 } <= ByteStream.chunkSize)
        #expect(stream.chunks >= total / ByteStream.chunkSize)
        stream.close()
    }
}
