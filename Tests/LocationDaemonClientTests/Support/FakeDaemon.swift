import Foundation
import LocationCore
import LocationProtocol
import LocationWire
import NIOCore
import NIOPosix
import TestSupport

/// A scripted stand-in for `locationd`: a real Unix-socket server speaking the wire protocol, which
/// can be stopped like `kill -9` (connections dropped, socket file left behind) and started again
/// on the same path.
final class FakeDaemon: @unchecked Sendable {
    /// How the daemon answers `hello`.
    enum Greeting: Sendable {
        case welcome
        case refuse(String)
        /// Never answers (a hung daemon).
        case silence
    }

    struct Received: Sendable, Equatable {
        /// Which connection, counting from 1 across restarts.
        var connection: Int
        var message: ClientMessage
        /// When it was read (so a test measures delays where they happen, not when it next looks).
        var time = Date()
    }

    static let identity = AppIdentity(id: "com.example.fake", displayName: "Fake", executablePath: "/usr/bin/fake")

    private let temporary: TemporaryDirectory
    var directory: String { temporary.path }
    let socketPath: String
    private let state: Locked<State>
    /// Answers everything but `hello` (nil: no answer).
    private let script: @Sendable (ClientMessage) -> [DaemonMessage]

    private struct State {
        var authorization: EffectiveAuthorization
        var greeting: Greeting
        var server: (any Channel)?
        var connections: [Int: any Channel] = [:]
        var lastConnection = 0
        var received: [Received] = []
        var closedConnections: Set<Int> = []
    }

    /// - Parameter socketName: the socket's path inside a fresh temporary directory.
    init(
        authorization: EffectiveAuthorization = .notDetermined, greeting: Greeting = .welcome,
        socketName: String = "d.sock",
        script: @escaping @Sendable (ClientMessage) -> [DaemonMessage] = { _ in [] }
    ) throws {
        temporary = try TemporaryDirectory()
        let directory = temporary.path
        socketPath = directory + "/" + socketName
        try FileManager.default.createDirectory(
            atPath: (socketPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        state = Locked(State(authorization: authorization, greeting: greeting))
        self.script = script
    }

    deinit {
        // May run on an event loop (a handler held the last reference): close without waiting.
        let (server, connections) = state.withLock { ($0.server, $0.connections.values) }
        for channel in connections { channel.close(promise: nil) }
        server?.close(promise: nil)
        temporary.remove()
    }

    // MARK: Life

    func start() throws {
        let server = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { [weak self] channel in
                guard let self else { return channel.close() }
                let number = state.withLock { state -> Int in
                    state.lastConnection += 1
                    state.connections[state.lastConnection] = channel
                    return state.lastConnection
                }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(WireFrameDecoder()), FakeDaemonHandler(daemon: self, connection: number))
                }
            }
            .bind(unixDomainSocketPath: socketPath, cleanupExistingSocketFile: true)
            .wait()
        state.withLock { $0.server = server }
    }

    /// Drops every connection at once and stops listening, leaving the socket file (as `kill -9` does).
    /// Waits for all of it: call it from the test, not from an event loop.
    func stop() {
        let (server, connections) = state.withLock { state in
            defer {
                state.server = nil
                state.connections = [:]
            }
            return (state.server, Array(state.connections.values))
        }
        for channel in connections { try? channel.close().wait() }
        guard let server else { return }
        try? server.close().wait()
        // NIO unlinks the socket file on close; a killed daemon cannot.
        Self.leaveStaleSocketFile(at: socketPath)
    }

    /// Binds a socket to `path` and closes it without unlinking: a socket file nobody listens behind.
    private static func leaveStaleSocketFile(at path: String) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    // MARK: Script

    var authorization: EffectiveAuthorization {
        get { state.withLock { $0.authorization } }
        set { state.withLock { $0.authorization = newValue } }
    }

    var greeting: Greeting {
        get { state.withLock { $0.greeting } }
        set { state.withLock { $0.greeting = newValue } }
    }

    var received: [Received] { state.withLock { $0.received } }

    /// The messages of one connection, in order.
    func messages(on connection: Int) -> [ClientMessage] {
        received.filter { $0.connection == connection }.map(\.message)
    }

    /// When the `count`th message on `connection` was read; nil before it was.
    func arrival(of count: Int, on connection: Int) -> Date? {
        let messages = received.filter { $0.connection == connection }
        return messages.count >= count ? messages[count - 1].time : nil
    }

    var connectionCount: Int { state.withLock { $0.lastConnection } }
    var openConnections: Int { state.withLock { $0.connections.count } }

    func isClosed(_ connection: Int) -> Bool { state.withLock { $0.closedConnections.contains(connection) } }

    /// Sends a message on the newest open connection.
    func send(_ message: DaemonMessage) throws {
        var buffer = ByteBuffer()
        try WireCodec.encode(message, into: &buffer)
        try sendRaw(buffer)
    }

    /// Sends bytes as they are (garbage, hostile lengths) on the newest open connection.
    func sendRaw(_ buffer: ByteBuffer) throws {
        let channel = state.withLock { $0.connections.max { $0.key < $1.key }?.value }
        guard let channel else { throw FakeDaemonError.noConnection }
        try channel.writeAndFlush(buffer).wait()
    }

    // MARK: From the handler

    fileprivate func receive(_ message: ClientMessage, connection: Int) -> [DaemonMessage] {
        let (authorization, greeting) = state.withLock { state in
            state.received.append(Received(connection: connection, message: message))
            return (state.authorization, state.greeting)
        }
        guard case .hello = message else { return script(message) }
        switch greeting {
        case .welcome: return [.welcome(identity: Self.identity, authorization: authorization, capabilities: .all)]
        case .refuse(let reason): return [.refused(reason)]
        case .silence: return []
        }
    }

    fileprivate func closed(_ connection: Int) {
        state.withLock { state in
            state.closedConnections.insert(connection)
            state.connections[connection] = nil
        }
    }
}

enum FakeDaemonError: Error { case noConnection }

private final class FakeDaemonHandler: ChannelInboundHandler {
    typealias InboundIn = WireFrame
    typealias OutboundOut = ByteBuffer

    private weak var daemon: FakeDaemon?
    private let connection: Int

    init(daemon: FakeDaemon, connection: Int) {
        self.daemon = daemon
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        do {
            let message = try WireCodec.decodeClientMessage(unwrapInboundIn(data))
            for answer in daemon?.receive(message, connection: connection) ?? [] {
                var buffer = context.channel.allocator.buffer(capacity: 256)
                try WireCodec.encode(answer, into: &buffer)
                context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
                if case .refused = answer { context.close(promise: nil) }
            }
        } catch {
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        daemon?.closed(connection)
        context.fireChannelInactive()
    }
}
