import LocationCore
import LocationProtocol
import LocationWire
import NIOCore

/// Carries messages from other threads (the engine's loop, mostly) to one event loop in batches.
///
/// A fix fans out to every watching client at once: handing each message over with its own
/// `eventLoop.execute` costs a task, a lock and a wake-up per client. Here the first message of a
/// batch schedules one task and the rest ride along; the frames are encoded on the event loop, so
/// the engine's loop only decides who gets what. Messages keep their order (one queue per loop).
final class EventLoopOutbox: Sendable {
    let eventLoop: any EventLoop
    private let pending = Locked<[(ConnectionWriter, DaemonMessage)]>([])

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func post(_ message: DaemonMessage, to writer: ConnectionWriter) {
        let first = pending.withLock { pending in
            pending.append((writer, message))
            return pending.count == 1
        }
        if first { eventLoop.execute { self.drain() } }
    }

    private func drain() {
        var batch: [(ConnectionWriter, DaemonMessage)] = []
        pending.withLock { swap(&batch, &$0) }
        // A batch is mostly one fix for every client: encoded once, its bytes shared by all.
        var shared: WireCodec.SharedLocationsFrame?
        for (writer, message) in batch {
            if case let .event(.stream(stream, .locations(fixes))) = message {
                if shared?.fixes != fixes {
                    shared = WireCodec.SharedLocationsFrame(fixes: fixes, stream: stream, allocator: writer.channel.allocator)
                }
                if let shared {
                    writer.write(frame: shared.frame(for: stream))
                    continue
                }
            }
            writer.write(message)
        }
    }
}
