import Dispatch
import Foundation
import LocationCore
import Logging

/// Tells a running process when the authorization store changes underneath it (`locationctl grant`,
/// `revoke`, `services off`, another app's prompt), by polling the store's change token.
///
/// Polling a `stat` four times a second costs next to nothing and works on every file system (inotify
/// does not see changes made over NFS or through some container mounts).
///
/// ``start()`` takes a baseline (token and database) synchronously, so every change made after `start()`
/// returns is reported. Reports are deduplicated by content: a touched but unchanged file is not reported,
/// and neither is the same read error twice in a row. `onChange` runs on the watcher's own serial queue.
public final class AuthorizationStoreWatcher: Sendable {
    public static let defaultInterval: TimeInterval = 0.25

    private enum Last: Equatable {
        case database(AuthorizationDatabase)
        case error(String)
    }

    private struct State {
        var timer: (any DispatchSourceTimer)?
        var token: StoreChangeToken?
        var last: Last?
        var generation = 0
    }

    private let store: any AuthorizationStore
    private let interval: TimeInterval
    private let onChange: @Sendable (Result<AuthorizationDatabase, any Error>) -> Void
    private let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<Bool>()
    private let state = Locked(State())
    private let logger: Logger

    /// - Parameters:
    ///   - store: the store to watch.
    ///   - interval: seconds between polls.
    ///   - onChange: the new database, or the error reading it (a corrupt file, say), each time the store
    ///     changes after ``start()``.
    public init(
        store: any AuthorizationStore,
        interval: TimeInterval = AuthorizationStoreWatcher.defaultInterval,
        logger: Logger = Logger(label: "corelocation.policy"),
        onChange: @escaping @Sendable (Result<AuthorizationDatabase, any Error>) -> Void
    ) {
        self.store = store
        self.interval = interval
        self.onChange = onChange
        self.logger = logger
        queue = DispatchQueue(label: "corelocation.policy.store-watcher")
        queue.setSpecific(key: queueKey, value: true)
    }

    deinit {
        state.withLock { $0.timer?.cancel() }
    }

    /// Starts polling; does nothing if already started.
    public func start() {
        let token = store.changeToken()
        let last: Last
        do {
            last = .database(try store.read())
        } catch {
            last = .error(String(describing: error))
        }
        state.withLock { state in
            guard state.timer == nil else { return }
            state.generation += 1
            let generation = state.generation
            state.token = token
            state.last = last
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let nanoseconds = Int(max(interval, 0.01) * 1e9)
            timer.schedule(
                deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                leeway: .nanoseconds(nanoseconds / 10))
            timer.setEventHandler { [weak self] in self?.poll(generation: generation) }
            state.timer = timer
            timer.resume()
        }
    }

    /// Stops polling. After `stop()` returns no new report starts; called from outside `onChange`, it also
    /// waits for a report in progress to finish.
    public func stop() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
            state.generation += 1
        }
        if DispatchQueue.getSpecific(key: queueKey) != true {
            queue.sync {}
        }
    }

    public var isRunning: Bool { state.withLock { $0.timer != nil } }

    private func poll(generation: Int) {
        let token = store.changeToken()
        let changed = state.withLock { state in
            guard state.generation == generation, state.token != token else { return false }
            state.token = token
            return true
        }
        guard changed else { return }
        let result: Result<AuthorizationDatabase, any Error>
        let last: Last
        do {
            let database = try store.read()
            result = .success(database)
            last = .database(database)
        } catch {
            result = .failure(error)
            last = .error(String(describing: error))
            logger.warning("authorization store changed but cannot be read", metadata: ["error": "\(error)"])
        }
        let report = state.withLock { state in
            guard state.generation == generation, state.last != last else { return false }
            state.last = last
            return true
        }
        if report { onChange(result) }
    }
}
