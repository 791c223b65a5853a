import Dispatch
import Foundation
import LocationCore

/// Where a manager delivers its delegate callbacks: the run loop of the thread that created it
/// (Apple's documented rule).
///
/// On the main thread this is the main queue, which Linux Foundation drains both from
/// `RunLoop.main.run()` and from `dispatchMain()`. On any other thread it is that thread's
/// `RunLoop`, which the thread must run.
final class CallbackContext: @unchecked Sendable {
    private let runLoop: RunLoop?
    private let pending = Locked<[@Sendable () -> Void]>([])

    private init(runLoop: RunLoop?) { self.runLoop = runLoop }

    /// The context of the calling thread.
    static func current() -> CallbackContext {
        CallbackContext(runLoop: Thread.isMainThread ? nil : RunLoop.current)
    }

    /// Runs `block` on this context, after every block performed before it.
    func perform(_ block: @escaping @Sendable () -> Void) {
        guard let runLoop else { return DispatchQueue.main.async(execute: block) }
        let first = pending.withLock { queue in
            queue.append(block)
            return queue.count == 1
        }
        guard first else { return }
        // NOTE: `RunLoop.perform` does not wake a sleeping run loop on Linux Foundation; adding a
        // timer does. The timer drains the queue in order.
        let timer = Timer(timeInterval: 0, repeats: false) { [self] _ in drain() }
        runLoop.add(timer, forMode: .common)
    }

    private func drain() {
        while true {
            let next = pending.withLock { queue -> (@Sendable () -> Void)? in
                queue.isEmpty ? nil : queue.first
            }
            guard let next else { return }
            next()
            pending.withLock { _ = $0.removeFirst() }
        }
    }
}
