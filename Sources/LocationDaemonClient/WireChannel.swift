import LocationWire
import NIOCore
import NIOPosix

/// One Unix-socket connection to `locationd`: says `hello` as soon as it is connected, splits the
/// byte stream into frames (with the wire's hard frame limit) and decodes each into a `DaemonMessage`.
///
/// Everything the connection reports goes to one `events` closure, called on the channel's event
/// loop, in order; owners hop to their own queue at once.
struct WireChannel: Sendable {
    enum Event: Sendable {
        case message(DaemonMessage)
        /// The connection ended; `failure` says why when this end gave up on it (bytes it could not
        /// decode), nil when the daemon closed it.
        case closed(failure: String?)
    }

    private let channel: any Channel

    init(_ channel: any Channel) { self.channel = channel }

    /// Connects to `socketPath`. Each event comes with the channel it happened on, so an owner never
    /// depends on the order in which the connect future and the first messages reach it.
    static func connect(
        socketPath: String, timeout: TimeAmount,
        events: @escaping @Sendable (WireChannel, Event) -> Void
    ) -> EventLoopFuture<WireChannel> {
        ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(WireFrameDecoder()),
                        DaemonMessageHandler(events: events))
                }
            }
            .connect(unixDomainSocketPath: socketPath)
            .map { WireChannel($0) }
    }

    /// Sends one message. Throws only when the message cannot be encoded (longer than a frame).
    func send(_ message: ClientMessage) throws {
        var buffer = channel.allocator.buffer(capacity: 256)
        try WireCodec.encode(message, into: &buffer)
        channel.writeAndFlush(buffer, promise: nil)
    }

    func close() {
        channel.close(promise: nil)
    }

    /// Whether two values are the same connection.
    func isSame(as other: WireChannel) -> Bool { channel === other.channel }
}

/// Sits after the frame decoder: hello out, messages in, and the reason when bytes from the daemon
/// cannot be understood (the connection is then closed — a confused client must not guess).
private final class DaemonMessageHandler: ChannelInboundHandler {
    typealias InboundIn = WireFrame
    typealias OutboundOut = ByteBuffer

    private let events: @Sendable (WireChannel, WireChannel.Event) -> Void
    private var failure: String?

    init(events: @escaping @Sendable (WireChannel, WireChannel.Event) -> Void) {
        self.events = events
    }

    func channelActive(context: ChannelHandlerContext) {
        var hello = context.channel.allocator.buffer(capacity: 32)
        do {
            try WireCodec.encode(ClientMessage.hello(version: WireProtocol.version), into: &hello)
            context.writeAndFlush(wrapOutboundOut(hello), promise: nil)
        } catch {
            fail(context: context, reason: "cannot encode hello: \(error)")
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard failure == nil else { return }
        do {
            let message = try WireCodec.decodeDaemonMessage(unwrapInboundIn(data))
            events(WireChannel(context.channel), .message(message))
        } catch {
            fail(context: context, reason: "\(error)")
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context: context, reason: "\(error)")
    }

    func channelInactive(context: ChannelHandlerContext) {
        events(WireChannel(context.channel), .closed(failure: failure))
        context.fireChannelInactive()
    }

    private func fail(context: ChannelHandlerContext, reason: String) {
        if failure == nil { failure = reason }
        context.close(promise: nil)
    }
}
