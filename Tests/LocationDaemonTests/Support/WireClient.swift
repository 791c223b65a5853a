import Foundation
import LocationAccess
import LocationCore
import LocationPolicy
import LocationProtocol
import LocationWire
import NIOCore
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A raw client of the daemon's socket: plain POSIX, frames encoded and decoded with `WireCodec`.
///
/// A thread of its own reads everything the daemon sends and records each message with its arrival
/// time (so delays are measured where the bytes arrive, not when a test gets round to polling).
final class WireClient: @unchecked Sendable {
    struct Received {
        var time: Date
        var message: DaemonMessage
        /// The frame as it came off the socket, length prefix included.
        var bytes: [UInt8]
    }

    private struct State {
        var received: [Received] = []
        var buffer = ByteBuffer()
        var endOfStream = false
        var decodeError: String?
    }

    let fd: Int32
    private let state = Locked(State())
    /// Entered while the reader thread runs.
    private let readerRunning = DispatchGroup()

    /// - Parameter reading: false makes a client that never reads (the daemon's buffers fill up).
    init(socketPath: String, reading: Bool = true) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WireClientError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw WireClientError("connect \(socketPath): \(reason)")
        }
        if reading { startReader() }
    }

    deinit { close() }

    // MARK: Sending

    func send(_ message: ClientMessage) {
        var buffer = ByteBuffer()
        try! WireCodec.encode(message, into: &buffer)
        sendRaw(Array(buffer.readableBytesView))
    }

    /// Writes bytes as they are (hostile clients); a write the daemon no longer accepts is ignored.
    func sendRaw(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// A JSON control frame with any payload (claims the protocol does not have, broken JSON, …).
    func sendJSONFrame(_ json: String) {
        let payload = Array(json.utf8)
        var frame: [UInt8] = withUnsafeBytes(of: UInt32(payload.count + 1).bigEndian, Array.init)
        frame.append(WireCodec.Kind.json.rawValue)
        frame += payload
        sendRaw(frame)
    }

    // MARK: Receiving

    var received: [Received] { state.withLock { $0.received } }
    var messages: [DaemonMessage] { received.map(\.message) }
    /// The daemon closed the connection (end of stream seen by the reader).
    var isClosedByDaemon: Bool { state.withLock { $0.endOfStream } }
    var decodeError: String? { state.withLock { $0.decodeError } }

    /// Every fix received in `locations` frames.
    var fixes: [Fix] {
        messages.flatMap { message -> [Fix] in
            if case let .event(.stream(_, .locations(fixes))) = message { return fixes }
            return []
        }
    }

    /// The first message matching `predicate`, waiting up to `timeout` seconds.
    func first(timeout: Double = 10, _ predicate: @escaping (DaemonMessage) -> Bool) async -> Received? {
        _ = await eventually(timeout: .seconds(timeout)) { self.received.contains { predicate($0.message) } }
        return received.first { predicate($0.message) }
    }

    /// Says hello and waits for the welcome.
    func hello() async throws -> (identity: AppIdentity, authorization: EffectiveAuthorization) {
        send(.hello(version: WireProtocol.version))
        let welcome = await first { message in
            if case .welcome = message { return true }
            if case .refused = message { return true }
            return false
        }
        guard case let .welcome(identity, authorization, _)? = welcome?.message else {
            throw WireClientError("no welcome: \(String(describing: welcome?.message))")
        }
        return (identity, authorization)
    }

    /// Whether the daemon has hung up, asked of the kernel (works for a client that never reads).
    var isHungUp: Bool {
        let peerClosed: Int16 = 0x2000 // POLLRDHUP (Linux), not exported by Glibc's module
        var entry = pollfd(fd: fd, events: peerClosed, revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        return entry.revents & (peerClosed | Int16(POLLHUP) | Int16(POLLERR)) != 0
    }

    // MARK: Closing

    private let closed = Locked(false)

    func close() {
        guard !closed.withLock({ closed in defer { closed = true }; return closed }) else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        _ = readerRunning.wait(timeout: .now() + 5)
        Glibc.close(fd)
    }

    private func startReader() {
        readerRunning.enter()
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                let now = Date()
                state.withLock { state in
                    state.buffer.writeBytes(chunk[..<count])
                    while true {
                        let bytes = state.buffer.getInteger(at: state.buffer.readerIndex, as: UInt32.self).flatMap {
                            state.buffer.getBytes(at: state.buffer.readerIndex, length: 4 + Int($0))
                        }
                        do {
                            guard let frame = try WireFrameDecoder.nextFrame(from: &state.buffer) else { break }
                            state.received.append(Received(time: now, message: try WireCodec.decodeDaemonMessage(frame), bytes: bytes ?? []))
                        } catch {
                            state.decodeError = "\(error)"
                            state.buffer.clear()
                            break
                        }
                    }
                }
            }
            state.withLock { $0.endOfStream = true }
            readerRunning.leave()
        }
        thread.start()
    }
}

struct WireClientError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
