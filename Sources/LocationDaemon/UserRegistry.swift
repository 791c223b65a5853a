import LocationAccess
import LocationCore
import LocationEngine
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's shared state that connections reach: one context per user (created lazily), and the
/// open client channels (so `stop()` can close them).
final class UserRegistry: Sendable {
    let configuration: DaemonConfiguration
    let engine: LocationEngine
    private let logger: Logger
    private let users = Locked<[uid_t: UserContext]>([:])
    private let channels = Locked<[ObjectIdentifier: any Channel]>([:])
    private let outboxes = Locked<[ObjectIdentifier: EventLoopOutbox]>([:])

    init(configuration: DaemonConfiguration, engine: LocationEngine, logger: Logger) {
        self.configuration = configuration
        self.engine = engine
        self.logger = logger
    }

    func user(for uid: uid_t) -> UserContext {
        users.withLock { users in
            if let existing = users[uid] { return existing }
            let user = UserContext(uid: uid, engine: engine, configuration: configuration, logger: logger)
            users[uid] = user
            return user
        }
    }

    var allUsers: [UserContext] { users.withLock { Array($0.values) } }

    /// Re-reads every user's store now (after the device-wide Location Services switch changed).
    func refreshAll() {
        for user in allUsers { user.service.refreshAuthorization() }
    }

    func track(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        channels.withLock { $0[key] = channel }
        channel.closeFuture.whenComplete { [channels] _ in
            channels.withLock { $0[key] = nil }
        }
    }

    var openChannels: [any Channel] { channels.withLock { Array($0.values) } }

    /// The outbox of an event loop (one per loop, shared by its connections).
    func outbox(for eventLoop: any EventLoop) -> EventLoopOutbox {
        outboxes.withLock { outboxes in
            let key = ObjectIdentifier(eventLoop)
            if let existing = outboxes[key] { return existing }
            let outbox = EventLoopOutbox(eventLoop: eventLoop)
            outboxes[key] = outbox
            return outbox
        }
    }
}
