import Foundation
import LocationProtocol
import LocationWire
import NIOCore
import NIOPosix

/// A short synchronous conversation with `locationd` (locationctl's commands, one-off questions):
/// connect, `hello` → welcome, then request → answer, each step within a timeout.
///
/// Blocks the calling thread, so it refuses to run on an event loop's thread (whose work it would wait for).
final class DaemonExchange: Sendable {
    let socketPath: String
    /// Who the daemon decided this process is, and its authorization.
    let identity: AppIdentity
    let authorization: EffectiveAuthorization
    /// What the daemon's sources can measure.
    let capabilities: ServiceCapabilities
    private let inbox: Inbox

    /// Connects and waits for the welcome.
    /// - Throws: ``DaemonClientError``: unreachable, refused, timed out, disconnected, or a protocol violation.
    init(socketPath: String, timeout: TimeInterval) throws {
        self.socketPath = socketPath
        guard MultiThreadedEventLoopGroup.currentEventLoop == nil else {
            throw DaemonClientError(.protocolViolation, socketPath: socketPath,
                                    detail: "a blocking exchange cannot run on an event loop")
        }
        let inbox = Inbox(socketPath: socketPath)
        self.inbox = inbox
        WireChannel.connect(socketPath: socketPath, timeout: .nanoseconds(Int64(timeout * 1e9))) { channel, event in
            inbox.attach(channel)
            inbox.put(event)
        }.whenComplete { result in
            switch result {
            case .success(let channel): inbox.attach(channel)
            case .failure(let error): inbox.fail(DaemonClientError.unreachable(socketPath, error))
            }
        }
        do {
            switch try inbox.next(within: timeout) {
            case let .welcome(identity, authorization, capabilities):
                self.identity = identity
                self.authorization = authorization
                self.capabilities = capabilities
            case .refused(let reason):
                throw DaemonClientError(.refused, socketPath: socketPath, detail: reason)
            case let other:
                throw DaemonClientError(.protocolViolation, socketPath: socketPath, detail: "expected a welcome, got \(other)")
            }
        } catch {
            inbox.abandon()
            throw error
        }
    }

    /// Sends `message` and returns the daemon's answer: the next message that is not an app event
    /// (a daemon may push those to any client).
    func request(_ message: ClientMessage, timeout: TimeInterval) throws -> DaemonMessage {
        try inbox.send(message)
        let deadline = Date() + timeout
        while true {
            let answer = try inbox.next(within: deadline.timeIntervalSinceNow)
            if case .event = answer { continue }
            if case .refused(let reason) = answer {
                throw DaemonClientError(.refused, socketPath: socketPath, detail: reason)
            }
            return answer
        }
    }

    func close() { inbox.abandon() }
}

/// What the event loop hands the waiting thread.
private final class Inbox: @unchecked Sendable {
    private let socketPath: String
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var messages: [DaemonMessage] = []
    private var ended: DaemonClientError?
    private var channel: WireChannel?
    private var abandoned = false

    init(socketPath: String) { self.socketPath = socketPath }

    func attach(_ channel: WireChannel) {
        condition.lock()
        guard !abandoned else {
            condition.unlock()
            // Not under the lock: closing fires channelInactive on this (event loop) thread, whose
            // handler comes back here to attach — NSCondition's lock is not recursive.
            return channel.close()
        }
        if self.channel == nil { self.channel = channel }
        condition.unlock()
    }

    func put(_ event: WireChannel.Event) {
        condition.lock()
        defer { condition.unlock() }
        switch event {
        case .message(let message):
            messages.append(message)
        case .closed(let failure):
            if ended == nil {
                ended = failure.map { DaemonClientError(.protocolViolation, socketPath: socketPath, detail: $0) }
                    ?? DaemonClientError(.disconnected, socketPath: socketPath, detail: "")
            }
        }
        condition.broadcast()
    }

    func fail(_ error: DaemonClientError) {
        condition.lock()
        defer { condition.unlock() }
        if ended == nil { ended = error }
        condition.broadcast()
    }

    /// The next message; throws when the connection ended first or nothing came within `timeout`.
    func next(within timeout: TimeInterval) throws -> DaemonMessage {
        let deadline = Date() + max(timeout, 0)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if !messages.isEmpty { return messages.removeFirst() }
            if let ended { throw ended }
            guard condition.wait(until: deadline) else {
                throw DaemonClientError(.timedOut, socketPath: socketPath, detail: "\(Self.format(timeout)) s")
            }
        }
    }

    func send(_ message: ClientMessage) throws {
        condition.lock()
        let channel = self.channel
        let ended = self.ended
        condition.unlock()
        if let ended { throw ended }
        guard let channel else {
            throw DaemonClientError(.disconnected, socketPath: socketPath, detail: "not connected")
        }
        do {
            try channel.send(message)
        } catch {
            throw DaemonClientError(.protocolViolation, socketPath: socketPath, detail: "cannot send: \(error)")
        }
    }

    /// Closes the connection, now or as soon as it exists.
    func abandon() {
        condition.lock()
        abandoned = true
        let channel = self.channel
        self.channel = nil
        condition.unlock()
        channel?.close()
    }

    private static func format(_ seconds: TimeInterval) -> String { String(format: "%g", seconds) }
}
