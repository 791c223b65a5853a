import Foundation
import LocationAccess
import LocationCore
import LocationEngine
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import LocationWire
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// One user's share of the daemon: their store, their `LocationService` on the shared engine, and
/// their prompt agent. Created the first time a process of that user connects.
final class UserContext: Sendable {
    let uid: uid_t
    let store: any AuthorizationStore
    let service: LocationService
    let agent: AgentPrompter
    private let logger: Logger
    /// Identities connected right now per bundle identifier (with a connection count), so a grant
    /// made while an app runs binds the record to that app.
    private let presenters = Locked<[String: [AppIdentity: Int]]>([:])

    init(uid: uid_t, engine: LocationEngine, configuration: DaemonConfiguration, logger: Logger) {
        var logger = logger
        logger[metadataKey: "uid"] = "\(uid)"
        self.uid = uid
        self.logger = logger
        store = configuration.storeFactory(uid)
        agent = AgentPrompter(logger: logger)
        let procRoot = configuration.procRoot
        service = LocationService(
            engine: engine, store: store,
            prompter: PrompterChain([agent, configuration.policyPrompter()], logger: logger),
            isAlive: { ProcessStamp.isAlive($0, procRoot: procRoot) },
            fenceStorage: configuration.fenceStorageFactory(uid), fenceLimits: configuration.fenceLimits,
            approximateRegions: configuration.approximateRegions,
            approximateStorage: configuration.approximateStorageFactory(uid),
            visitStorage: configuration.visitStorageFactory(uid),
            logger: logger)
        service.startWatchingStore(every: configuration.storeWatchInterval)
    }

    // MARK: Identity

    /// Who a connected process is, by the binding rule (``IdentityBinding``).
    func identify(_ process: PeerProcess) -> (identity: AppIdentity, info: AppInfo) {
        let info = process.loadAppInfo(logger: logger)
        return IdentityBinding.resolve(
            info: info, executablePath: process.executablePath, store: store, read: service.readStoreWithoutWaiting, logger: logger)
    }

    func presenterConnected(_ identity: AppIdentity) {
        guard !identity.id.hasPrefix("/") else { return }
        presenters.withLock { $0[identity.id, default: [:]][identity, default: 0] += 1 }
    }

    func presenterDisconnected(_ identity: AppIdentity) {
        guard !identity.id.hasPrefix("/") else { return }
        presenters.withLock { presenters in
            guard let count = presenters[identity.id]?[identity] else { return }
            presenters[identity.id]?[identity] = count > 1 ? count - 1 : nil
            if presenters[identity.id]?.isEmpty == true { presenters[identity.id] = nil }
        }
    }

    // MARK: Settings

    /// Applies a settings change to this user's store.
    ///
    /// - Returns: nil on success, else why not. An unreadable store refuses every change (and says so):
    ///   the daemon never writes over a store it cannot read.
    func apply(_ change: SettingsChange) -> SettingsChangeError? {
        let running = presenters.withLock { $0 }
        do {
            try store.update { database in
                try change.apply(to: &database, now: service.engine.loop.now)
                // Granted while the app runs: bind the record to it now, unless several executables
                // present the identifier (then the first to connect later binds it).
                if case let .grant(app, _, _) = change, let record = database.apps[app], record.executablePath.isEmpty,
                   let identities = running[app]?.keys, Set(identities.map(\.executablePath)).count == 1,
                   let identity = identities.first {
                    database.apps[app] = IdentityBinding.bound(record, to: identity)
                }
            }
        } catch let error as SettingsChangeError {
            return error
        } catch {
            logger.error("settings change refused", metadata: ["change": "\(change)", "error": "\(error)"])
            return SettingsChangeError("\(error)")
        }
        logger.info("settings changed", metadata: ["change": "\(change.summary)"])
        service.refreshAuthorization()
        return nil
    }

    /// `locationctl apps`: this user's database, or why it cannot be read.
    func listApps() -> DaemonMessage {
        do {
            return .apps(try store.read())
        } catch {
            return .appsUnavailable(SettingsChangeError("\(error)"))
        }
    }

    // MARK: Agent

    /// The user's fences, by app (`locationctl regions`); `reply` runs on the service's loop.
    func listFences(reply: @escaping @Sendable (DaemonMessage) -> Void) {
        service.listFences { reply(.fences($0)) }
    }

    func registerAgent(_ endpoint: any AgentEndpoint) {
        agent.register(endpoint)
        logger.info("prompt agent registered")
        // Apps that asked while nobody could answer are asked again, now that someone can.
        service.retryPendingPrompts()
    }

    func stop() {
        service.stopWatchingStore()
    }
}
