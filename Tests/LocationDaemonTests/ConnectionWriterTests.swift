import Foundation
import LocationProtocol
import LocationWire
import Logging
import NIOCore
import NIOPosix
import Testing
@testable import LocationDaemon

#if canImport(Glibc)
import Glibc
#endif

/// The writer sends straight to the socket, and through the channel when the kernel takes less than
/// a frame: whichever way, the client reads whole frames, the welcome first, and each thread's
/// frames in the order it sent them.
@Suite(.timeLimit(.minutes(2)))
struct ConnectionWriterTests {
    static let framesPerThread = 3000

    @Test func framesStayWholeAndInOrderWhileTheClientReadsSlowly() async throws {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        let (daemonSide, clientSide) = (pair[0], pair[1])
        defer { close(clientSide) }
        // Small buffers, so that the kernel soon takes only part of a frame, then none.
        setOption(daemonSide, SO_SNDBUF, 4096)
        setOption(clientSide, SO_RCVBUF, 4096)
        // A reader that hangs fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(clientSide, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            try await exercise(group, daemonSide: daemonSide, clientSide: clientSide)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
    }

    private func exercise(_ group: MultiThreadedEventLoopGroup, daemonSide: Int32, clientSide: Int32) async throws {
        let channel = try await ClientBootstrap(group: group).withConnectedSocket(daemonSide).get()
        let writer = ConnectionWriter(channel: channel, outbox: EventLoopOutbox(eventLoop: channel.eventLoop), logger: Logger(label: "test"))
        let welcome = DaemonMessage.welcome(
            identity: .init(id: "com.example.writer", displayName: "Writer", executablePath: "/usr/bin/writer"),
            authorization: .init(status: .authorizedWhenInUse, accuracy: .fullAccuracy, servicesEnabled: true),
            capabilities: .all)

        // As in the daemon's hello: the client is connected to the service (the engine's thread may
        // send from now on; here it sends on stream 1 at once), then the welcome is written.
        try await channel.eventLoop.submit {
            Thread {
                for index in 0..<Self.framesPerThread { writer.send(.stream(1, .locations([Self.fix(index)]))) }
            }.start()
            usleep(1000)
            writer.attachSocket()
            writer.send(welcome)
        }.get()
        // The event loop sends on stream 2 meanwhile, as the connection's own replies do.
        for index in 0..<Self.framesPerThread {
            channel.eventLoop.execute { writer.send(.stream(2, .locations([Self.fix(index)]))) }
        }

        let messages = try Self.read(clientSide, messages: 1 + 2 * Self.framesPerThread)
        #expect(messages.first == welcome)
        var received: [StreamID: [Int]] = [:]
        for case let .event(.stream(stream, .locations(fixes))) in messages.dropFirst() {
            received[stream, default: []] += fixes.map { Int($0.timestamp.timeIntervalSince1970) }
        }
        #expect(received[1] == Array(0..<Self.framesPerThread))
        #expect(received[2] == Array(0..<Self.framesPerThread))
        // The slow start sent frames through the channel.
        let throughChannel = writer.framesThroughChannel
        #expect(throughChannel > 0)

        // Once the channel has written what it was given, frames go straight to the socket again
        let deadline = Date().addingTimeInterval(5)
        while writer.framesQueuedInChannel > 0, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(writer.framesQueuedInChannel == 0)
        let later = Thread {
            for index in 0..<100 { writer.send(.stream(1, .locations([Self.fix(Self.framesPerThread + index)]))) }
        }
        later.start()
        let laterMessages = try Self.read(clientSide, messages: 100, slowReads: 0)
        #expect(laterMessages == (0..<100).map { .event(.stream(1, .locations([Self.fix(Self.framesPerThread + $0)]))) })
        // (Not all: with buffers this small the kernel soon refuses again.)
        #expect(writer.framesThroughChannel < throughChannel + 100)

        try await channel.close()
    }

    static func fix(_ index: Int) -> Fix {
        Fix(latitude: Double(index % 90), longitude: 13.4, horizontalAccuracy: 5,
            timestamp: Date(timeIntervalSince1970: Double(index)))
    }

    private func setOption(_ descriptor: Int32, _ option: Int32, _ value: Int32) {
        var value = value
        setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Reads and decodes `count` messages: the first few hundred reads small and slow (the kernel's
    /// buffers fill and the writer has to queue), the rest as fast as they come.
    static func read(_ descriptor: Int32, messages count: Int, slowReads: Int = 300) throws -> [DaemonMessage] {
        var buffer = ByteBuffer()
        var messages: [DaemonMessage] = []
        var reads = 0
        while messages.count < count {
            let slow = reads < slowReads
            var chunk = [UInt8](repeating: 0, count: slow ? 700 : 65536)
            let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard got > 0 else {
                throw WriterTestError("read \(messages.count) of \(count) messages, then \(got < 0 ? String(cString: strerror(errno)) : "end of stream")")
            }
            reads += 1
            buffer.writeBytes(chunk[0..<got])
            while let frame = try WireFrameDecoder.nextFrame(from: &buffer) {
                messages.append(try WireCodec.decodeDaemonMessage(frame))
            }
            if slow { usleep(300) }
        }
        return messages
    }
}

struct WriterTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
