import Foundation
import LocationCore
import LocationEngine
import LocationSources
import LocationWire
import Logging
import NIOCore
import NIOPosix

/// `locationd`: one location engine serving many apps over a Unix socket.
///
/// Each client is identified by the kernel (``PeerCredentials``, then ``PeerProcess`` and the Info.plist
/// beside its executable, by the rule of ``IdentityBinding``) and served by its user's `LocationService`,
/// which enforces authorization and reduced accuracy before anything is written to the socket.
public final class LocationDaemon: Sendable {
    public let configuration: DaemonConfiguration
    /// The one engine every user's service shares.
    public let engine: LocationEngine
    private let loop: RealtimeLoop
    private let registry: UserRegistry
    private let logger: Logger

    private struct Running {
        var group: MultiThreadedEventLoopGroup
        var server: any Channel
        var socketInode: ino_t
        var keeper: LastLocationKeeper?
        var socketWatch: RepeatedTask?
    }

    /// How often the daemon checks that its socket file is still there (seconds): a socket deleted
    /// under it (a cleaner of /tmp or /run, a careless `rm`) is bound again within this time, so new
    /// apps can connect; apps already connected never notice.
    static let socketCheckInterval: Int64 = 2

    private let running = Locked<Running?>(nil)

    public init(configuration: DaemonConfiguration, logger: Logger = Logger(label: "corelocation.daemon")) {
        self.configuration = configuration
        self.logger = logger
        loop = RealtimeLoop(label: "corelocation.locationd.engine")
        engine = LocationEngine(loop: loop, sources: configuration.sources, tuning: configuration.engineTuning)
        registry = UserRegistry(configuration: configuration, engine: engine, logger: logger)
    }

    /// Where the daemon listens.
    public var socketPath: String { configuration.socketPath }

    /// Binds the socket and starts serving (on the daemon's own threads; returns at once).
    ///
    /// - Throws: ``DaemonError`` when another daemon answers at the socket ("already running at PATH"),
    ///   when the path is taken by something that is not a socket, or when binding fails.
    public func start() throws {
        let socket = SocketFile(path: configuration.socketPath, instance: configuration.instance)
        try socket.prepare(logger: logger)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: configuration.eventLoopThreads)
        let server: any Channel
        let inode: ino_t
        do {
            server = try bootstrap(group).bind(unixDomainSocketPath: configuration.socketPath, cleanupExistingSocketFile: false).wait()
            inode = try socket.finishBinding()
        } catch {
            try? group.syncShutdownGracefully()
            if let error = error as? DaemonError { throw error }
            throw DaemonError("cannot listen at \(configuration.socketPath): \(error)")
        }
        var keeper: LastLocationKeeper?
        if let storage = configuration.lastLocationStore {
            keeper = LastLocationKeeper(storage: storage, engine: engine, interval: configuration.lastLocationSaveInterval, logger: logger)
            keeper?.start()
        }
        let watch = group.next().scheduleRepeatedTask(
            initialDelay: .seconds(Self.socketCheckInterval), delay: .seconds(Self.socketCheckInterval)
        ) { [weak self] _ in self?.rebindIfSocketVanished() }
        running.withLock { $0 = Running(group: group, server: server, socketInode: inode, keeper: keeper, socketWatch: watch) }
        logger.info("listening", metadata: [
            "socket": "\(configuration.socketPath)", "instance": "\(configuration.instance)",
            "sources": "\(configuration.sources.map(\.descriptor.name).joined(separator: ", "))",
        ])
    }

    /// Stops serving: closes every connection (releasing their streams, so sources stop), saves the
    /// last known location, removes the socket file. Safe to call twice. Never call it on an event loop.
    public func stop() {
        guard let state = running.withLock({ state -> Running? in
            defer { state = nil }
            return state
        }) else { return }
        state.socketWatch?.cancel()
        try? state.server.close().wait()
        SocketFile(path: configuration.socketPath, instance: configuration.instance).remove(inode: state.socketInode)
        for channel in registry.openChannels {
            channel.close(promise: nil)
            // Completed after the handlers saw the channel go inactive (and released its streams).
            try? channel.closeFuture.wait()
        }
        // The released streams travel through the engine loop in a few hops (service → engine →
        // source): once they are through, sources are stopped and no event is on its way to a
        // client — only then may the event loops go.
        for _ in 0..<4 { loop.sync {} }
        for user in registry.allUsers { user.stop() }
        try? state.group.syncShutdownGracefully()
        state.keeper?.stop()
        logger.info("stopped", metadata: ["socket": "\(configuration.socketPath)"])
    }

    /// Binds the socket again when its file is gone (runs on an event loop, so it never waits). A path
    /// taken by something else meanwhile (another daemon's socket, a file) is left alone.
    ///
    /// The old listener is closed first: closing a listening Unix socket unlinks its path, which
    /// would delete the new socket's file if it were bound already.
    private func rebindIfSocketVanished() {
        guard let state = running.withLock({ $0 }) else { return }
        var status = stat()
        guard lstat(configuration.socketPath, &status) != 0, errno == ENOENT else { return }
        logger.warning("the socket file was deleted; binding it again", metadata: ["socket": "\(configuration.socketPath)"])
        let socket = SocketFile(path: configuration.socketPath, instance: configuration.instance)
        state.server.close().whenComplete { _ in
            do {
                try socket.prepare(logger: self.logger)
            } catch {
                self.logger.error("cannot bind the socket again", metadata: ["error": "\(error)"])
                return
            }
            self.bootstrap(state.group).bind(unixDomainSocketPath: self.configuration.socketPath, cleanupExistingSocketFile: false)
                .whenComplete { result in self.adopt(result, socket: socket) }
        }
    }

    /// Makes a newly bound listener the daemon's, or closes it when the daemon stopped meanwhile.
    private func adopt(_ result: Result<any Channel, any Error>, socket: SocketFile) {
        do {
            let server = try result.get()
            let inode = try socket.finishBinding()
            let adopted = running.withLock { running -> Bool in
                guard running != nil else { return false }
                running?.server = server
                running?.socketInode = inode
                return true
            }
            guard adopted else {
                server.close(promise: nil)
                return
            }
            logger.info("listening again", metadata: ["socket": "\(configuration.socketPath)"])
        } catch {
            logger.error("cannot bind the socket again", metadata: ["error": "\(error)"])
        }
    }

    private func bootstrap(_ group: MultiThreadedEventLoopGroup) -> ServerBootstrap {
        let registry = registry
        let logger = logger
        let procRoot = configuration.procRoot
        return ServerBootstrap(group: group)
            // Many apps may start at once (the benchmark connects a thousand).
            .serverChannelOption(.backlog, value: 1024)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 64 * 1024))
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { channel in
                registry.track(channel)
                // Who the peer is, read at once (see PeerProcess for why now).
                return PeerCredentials.read(from: channel)
                    .flatMapThrowing { credentials in try PeerProcess.inspect(credentials, procRoot: procRoot) }
                    .map { Result<PeerProcess, PeerIdentityError>.success($0) }
                    .recover { error in .failure(error as? PeerIdentityError ?? PeerIdentityError("SO_PEERCRED failed: \(error)")) }
                    .flatMapThrowing { peer in
                        try channel.pipeline.syncOperations.addHandlers([
                            ByteToMessageHandler(WireFrameDecoder()),
                            DaemonConnectionHandler(peer: peer, registry: registry, logger: logger),
                        ])
                    }
            }
    }
}

extension LocationDaemon {
    /// Client connections open now (for tests and diagnostics).
    var registryOpenChannelCount: Int { registry.openChannels.count }
}

extension LocationDaemon {
    /// Whether a prompt agent is registered for `uid` (for tests and diagnostics).
    func hasAgent(forUser uid: uid_t) -> Bool {
        registry.allUsers.contains { $0.uid == uid && $0.agent.hasAgent }
    }
}
