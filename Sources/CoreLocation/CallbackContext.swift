import Dispatch
import Foundation
import LocationCore

/// Where a manager delivers its delegate callbacks: the run loop of the thread that created it
/// (Apple's documented rule).
///
/// Blocks wait in one ordered queue and a *drain* runs them, each exactly once and in order. What
/// schedules the drain depends on the creating thread:
///
/// - Another thread: a zero-interval timer on that thread's `RunLoop`, which the thread must run.
///   (`RunLoop.perform` does not wake a sleeping run loop on Linux Foundation; adding a timer does.)
/// - The main thread, or code running on the main queue: both a zero-interval timer on
///   `RunLoop.main` and a `DispatchQueue.main` block, and whichever runs first drains. The main run
///   loop drains the main queue only when it is not already inside a main-queue block, so the timer
///   is what fires under `RunLoop.main.run(until:)` called from a main-queue block (or a main-actor
///   task); under `dispatchMain()` no run loop runs and the main-queue block drains.
///
/// A callback that spins the run loop itself receives the following callbacks inside that spin,
/// still in order, as run loop sources fire in nested runs on Apple's platforms.
final class CallbackContext: @unchecked Sendable {
    private typealias Block = @Sendable () -> Void

    private struct State {
        var blocks: [Block] = []
        /// The thread running a drain, and how deeply it is nested there; a drain started on any
        /// other thread meanwhile leaves the blocks to it, so callbacks never run concurrently.
        var drainer: pthread_t?
        var depth = 0
        /// At most one of each is outstanding: under `dispatchMain()` the main run loop's timer
        /// never fires, and under a nested `run(until:)` the main-queue block waits.
        var timerScheduled = false
        var mainQueueScheduled = false
    }

    private enum Target {
        case main
        case thread(RunLoop)
    }

    private let target: Target
    private let state = Locked(State())

    private init(target: Target) { self.target = target }

    /// The context of the calling thread.
    static func current() -> CallbackContext {
        if Thread.isMainThread || isOnMainQueue { return CallbackContext(target: .main) }
        return CallbackContext(target: .thread(RunLoop.current))
    }

    /// Runs `block` on this context, after every block performed before it.
    func perform(_ block: @escaping @Sendable () -> Void) {
        let usesMainQueue: Bool
        switch target {
        case .main: usesMainQueue = true
        case .thread: usesMainQueue = false
        }
        let (addsTimer, addsMainQueueBlock) = state.withLock { state in
            state.blocks.append(block)
            let schedule = (!state.timerScheduled, usesMainQueue && !state.mainQueueScheduled)
            state.timerScheduled = true
            state.mainQueueScheduled = state.mainQueueScheduled || usesMainQueue
            return schedule
        }
        if addsTimer {
            let timer = Timer(timeInterval: 0, repeats: false) { [weak self] _ in
                guard let self else { return }
                self.state.withLock { $0.timerScheduled = false }
                self.drain()
            }
            runLoop.add(timer, forMode: .common)
        }
        if addsMainQueueBlock {
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.state.withLock { $0.mainQueueScheduled = false }
                self.drain()
            }
        }
    }

    private var runLoop: RunLoop {
        switch target {
        case .main: RunLoop.main
        case .thread(let runLoop): runLoop
        }
    }

    /// Runs the queued blocks in order; each is taken off the queue before it runs, so a drain
    /// nested inside one (the callback spun the run loop) goes on with the next and none runs twice.
    private func drain() {
        let me = pthread_self()
        let entered = state.withLock { state -> Bool in
            if let drainer = state.drainer, pthread_equal(drainer, me) == 0 { return false }
            state.drainer = me
            state.depth += 1
            return true
        }
        guard entered else { return }
        while true {
            // Taking the last block and leaving happen under one lock, so a block queued meanwhile
            // is either taken here or finds the drain gone and schedules its own.
            let next = state.withLock { state -> Block? in
                if !state.blocks.isEmpty { return state.blocks.removeFirst() }
                state.depth -= 1
                if state.depth == 0 { state.drainer = nil }
                return nil
            }
            guard let next else { return }
            next()
        }
    }

    /// Whether the caller runs on the main queue: under `dispatchMain()` the main queue's blocks run
    /// on worker threads, where `Thread.isMainThread` is `false`.
    private static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) != nil }

    private static let mainQueueKey: DispatchSpecificKey<Void> = {
        let key = DispatchSpecificKey<Void>()
        DispatchQueue.main.setSpecific(key: key, value: ())
        return key
    }()
}
