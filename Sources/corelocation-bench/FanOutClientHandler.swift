#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LocationAccess
import LocationCore
import LocationEngine
import LocationProtocol
import LocationWire
import NIOCore

/// One fix as one benchmark client received it.
struct Delivery: Sendable {
    /// The fix's timestamp, ms since the Unix epoch: the key that joins it to the feeder's send time.
    var fixMilliseconds: Int64
    /// `CLOCK_REALTIME` when the frame reached the client's handler, ns since the Unix epoch.
    var receivedNanoseconds: Int64

    init(_ fix: Fix, receivedNanoseconds: Int64) {
        fixMilliseconds = Int64((fix.timestamp.timeIntervalSince1970 * 1000).rounded())
        self.receivedNanoseconds = receivedNanoseconds
    }
}

/// What a client saw besides fixes; anything but zero here is printed, as it may explain missing fixes.
struct ClientAnomalies: Sendable {
    var failures: [String] = []
    var otherEvents = 0
    var disconnected = false

    /// Records a message that is neither a fix nor part of the handshake.
    mutating func note(_ message: DaemonMessage) {
        switch message {
        case let .event(.stream(_, .failed(failure))):
            failures.append("stream failed: \(failure.rawValue)")
        case let .event(.authorizationChanged(authorization)) where !authorization.status.isAuthorized:
            failures.append("authorization changed to \(authorization.status)")
        default:
            otherEvents += 1
        }
    }
}

/// One benchmark client on `locationd`'s socket: `hello`, then (once welcomed *and authorized*) one
/// continuous stream with no distance filter, then every fix is recorded with its receive time.
///
/// The receive time is taken once per read, before anything is decoded. The handler splits frames
/// itself (`WireFrameDecoder.nextFrame`) rather than behind a `ByteToMessageHandler`: with 1,000
/// connections on one thread, the client's own cost per fix adds to the latency it measures (see
/// scripts/bench-locationd.sh), so the pipeline is one handler.
final class FanOutClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let streamID: StreamID = 1
    static let request = UpdateRequest(
        mode: .continuous, desiredAccuracy: -1, distanceFilter: -1, pausesAutomatically: false)

    private let welcomed: EventLoopPromise<Void>
    private var isStarted = false
    /// The start of a frame split across reads (rare: a fix frame is ~100 bytes).
    private var partial: ByteBuffer?
    private(set) var deliveries: [Delivery] = []
    private(set) var anomalies = ClientAnomalies()

    /// - Parameters:
    ///   - welcomed: succeeds once the stream is requested; fails if the daemon refuses the client,
    ///     does not authorize it, or the connection ends first.
    ///   - expectedFixes: capacity reserved up front, so recording never reallocates mid-run.
    init(welcomed: EventLoopPromise<Void>, expectedFixes: Int) {
        self.welcomed = welcomed
        deliveries.reserveCapacity(expectedFixes)
    }

    func channelActive(context: ChannelHandlerContext) {
        send(.hello(version: WireProtocol.version), context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let received = realtimeNanoseconds()
        var bytes = unwrapInboundIn(data)
        if var pending = partial {
            pending.writeBuffer(&bytes)
            bytes = pending
            partial = nil
        }
        do {
            while let frame = try WireFrameDecoder.nextFrame(from: &bytes) {
                handle(try WireCodec.decodeDaemonMessage(frame), received: received, context: context)
            }
        } catch {
            fail("undecodable message: \(error)", context: context)
            return
        }
        if bytes.readableBytes > 0 { partial = bytes }
    }

    private func handle(_ message: DaemonMessage, received: Int64, context: ChannelHandlerContext) {
        switch message {
        case let .event(.stream(_, .locations(fixes))):
            for fix in fixes { deliveries.append(Delivery(fix, receivedNanoseconds: received)) }
        case let .welcome(identity, authorization, _):
            guard authorization.status.isAuthorized, authorization.servicesEnabled else {
                fail("not authorized as \(identity.id) (\(authorization.status), services "
                     + "\(authorization.servicesEnabled ? "on" : "off")): grant \(identity.executablePath) first",
                     context: context)
                return
            }
            isStarted = true
            send(.request(.startUpdates(Self.streamID, Self.request)), context: context)
            welcomed.succeed()
        case let .refused(reason):
            fail("refused by the daemon: \(reason)", context: context)
        default:
            anomalies.note(message)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        anomalies.disconnected = true
        welcomed.fail(BenchClientError("the daemon closed the connection before welcoming the client"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail("connection error: \(error)", context: context)
    }

    private func fail(_ reason: String, context: ChannelHandlerContext) {
        anomalies.failures.append(reason)
        if !isStarted { welcomed.fail(BenchClientError(reason)) }
        context.close(promise: nil)
    }

    private func send(_ message: ClientMessage, context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: 256)
        do {
            try WireCodec.encode(message, into: &buffer)
        } catch {
            fail("cannot encode \(message): \(error)", context: context)
            return
        }
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }
}

struct BenchClientError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Wall-clock time in ns since the Unix epoch, the clock the feeder stamps its sends with.
func realtimeNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
