import Foundation
import LocationAccess
import LocationPolicy
import LocationProtocol
import LocationWire
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// One client connection: the hello handshake, then app requests, settings, `listApps` and the agent
/// protocol. Sits after the `WireFrameDecoder` in the pipeline; runs on the channel's event loop.
///
/// Anything unexpected — a frame that does not decode, a message out of order, a peer the daemon
/// cannot identify — gets one log line, a `refused(reason)` frame and the connection closed. Other
/// clients never notice.
final class DaemonConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = WireFrame
    typealias OutboundOut = ByteBuffer

    private struct Serving {
        let user: UserContext
        let identity: AppIdentity
        let connection: any ClientConnection
        let writer: ConnectionWriter
        var isAgent = false
    }

    private let peer: Result<PeerProcess, PeerIdentityError>
    private let registry: UserRegistry
    private var logger: Logger
    private var serving: Serving?
    private var finished = false
    private var stallTimer: Scheduled<Void>?

    init(peer: Result<PeerProcess, PeerIdentityError>, registry: UserRegistry, logger: Logger) {
        self.peer = peer
        self.registry = registry
        var logger = logger
        if case let .success(process) = peer {
            logger[metadataKey: "pid"] = "\(process.credentials.pid)"
            logger[metadataKey: "uid"] = "\(process.credentials.uid)"
        }
        self.logger = logger
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !finished else { return }
        let message: ClientMessage
        do {
            message = try WireCodec.decodeClientMessage(unwrapInboundIn(data))
        } catch {
            return refuse(context, "\(error)")
        }
        if let serving {
            serve(message, serving, context)
        } else {
            hello(message, context)
        }
    }

    private func hello(_ message: ClientMessage, _ context: ChannelHandlerContext) {
        guard case let .hello(version) = message else { return refuse(context, "the first message must be hello") }
        guard version == WireProtocol.version else {
            return refuse(context, """
                this client speaks wire protocol \(version) and locationd speaks \(WireProtocol.version): \
                run a CoreLocation library and a locationd of the same release
                """)
        }
        let process: PeerProcess
        switch peer {
        case .success(let found): process = found
        case .failure(let error): return refuse(context, "cannot identify the client: \(error)")
        }
        if registry.configuration.instance == .user, process.credentials.uid != getuid() {
            return refuse(context, "this is the location daemon of uid \(getuid()); uid \(process.credentials.uid) cannot use it")
        }
        let user = registry.user(for: process.credentials.uid)
        let (identity, info) = user.identify(process)
        logger[metadataKey: "app"] = "\(identity.id)"
        let writer = ConnectionWriter(channel: context.channel, outbox: registry.outbox(for: context.eventLoop), logger: logger)
        let connection = user.service.connect(app: identity, info: info, process: process.stamp) { event in
            writer.send(event)
        }
        user.presenterConnected(identity)
        serving = Serving(user: user, identity: identity, connection: connection, writer: writer)
        logger.debug("client connected", metadata: ["executable": "\(process.executablePath)"])
        // Written now, inside this event-loop turn: service events reach this loop from the engine's
        // loop as later tasks (through the outbox), so the welcome is always the first frame.
        // The in-process service always knows the authorization at once; the fallback reads it again.
        let authorization = connection.initialAuthorization
            ?? user.service.currentAuthorization(app: identity, process: process.stamp)
        writer.attachSocket()
        writer.send(.welcome(identity: identity, authorization: authorization,
                             capabilities: ServiceCapabilities(of: user.service)))
    }

    private func serve(_ message: ClientMessage, _ serving: Serving, _ context: ChannelHandlerContext) {
        switch message {
        case .hello:
            refuse(context, "hello sent twice")
        case .request(let request):
            serving.connection.send(request)
        case .settings(let change):
            let (writer, user, registry) = (serving.writer, serving.user, registry)
            Self.storeWork.async { writer.send(.settingsResult(Self.applySettings(change, user, registry))) }
        case .listApps:
            let (writer, user) = (serving.writer, serving.user)
            Self.storeWork.async { writer.send(user.listApps()) }
        case .listFences:
            serving.user.listFences { serving.writer.send($0) }
        case .registerAgent:
            self.serving?.isAgent = true
            serving.user.registerAgent(serving.writer)
        case let .agentAnswer(id, answer):
            serving.user.agent.answer(id: id, answer, from: serving.writer)
        }
    }

    /// Where `locationctl`'s reads and changes of the authorization store run: a store locked by
    /// another process makes them wait (up to `SQLiteAuthorizationStore.lockWait`), and an event
    /// loop that waited would stall every app connected to it. One queue keeps a client's requests
    /// answered in order.
    private static let storeWork = DispatchQueue(label: "corelocation.locationd.store")

    private static func applySettings(_ change: SettingsChange, _ user: UserContext, _ registry: UserRegistry) -> SettingsChangeError? {
        guard case .services = change else { return user.apply(change) }
        // The switch is device-wide: only root (or the user the daemon runs as) may flip it.
        guard user.uid == 0 || user.uid == getuid() else {
            return SettingsChangeError("only root can turn Location Services on or off (it is device-wide)")
        }
        let error = user.apply(change)
        if error == nil { registry.refreshAll() }
        return error
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is WireError {
            refuse(context, "\(error)")
        } else {
            logger.debug("client connection failed", metadata: ["error": "\(error)"])
            context.close(promise: nil)
        }
    }

    // MARK: Back-pressure

    /// A client the daemon cannot write to is not read from either (its requests would only queue
    /// more replies) and is disconnected if it stays stuck. Reading resumes when it catches up.
    /// (Not an outbound handler that holds `read()` back: every frame written would pass through it.)
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        let writable = context.channel.isWritable
        serving?.writer.writabilityChanged(writable)
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: writable)
        if writable {
            stallTimer?.cancel()
            stallTimer = nil
        } else if stallTimer == nil {
            let channel = context.channel
            let timeout = registry.configuration.stalledClientTimeout
            let logger = logger
            stallTimer = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout * 1e9))) {
                logger.notice("disconnecting a client that has not read for \(timeout) s")
                channel.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    // MARK: Ending

    private func refuse(_ context: ChannelHandlerContext, _ reason: String) {
        guard !finished else { return }
        logger.notice("refusing client: \(reason)")
        finish()
        var buffer = context.channel.allocator.buffer(capacity: 64 + reason.utf8.count)
        if (try? WireCodec.encode(DaemonMessage.refused(reason), into: &buffer)) != nil {
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        }
        context.close(promise: nil)
    }

    /// Releases everything the connection holds: its service connection (and with it its streams, so
    /// the engine stops sources nobody needs), its agent role, its stall timer.
    private func finish() {
        guard !finished else { return }
        finished = true
        stallTimer?.cancel()
        stallTimer = nil
        guard let serving else { return }
        self.serving = nil
        serving.writer.detachSocket()
        serving.connection.close()
        serving.user.presenterDisconnected(serving.identity)
        if serving.isAgent { serving.user.agent.unregister(serving.writer) }
        logger.debug("client disconnected")
    }
}
