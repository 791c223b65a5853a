import Dispatch
import Foundation

/// The production loop: a serial dispatch queue and the wall clock.
public final class RealtimeLoop: EngineLoop {
    private let queue: DispatchQueue
    private let key = DispatchSpecificKey<ObjectIdentifier>()

    public init(label: String = "corelocation.engine") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: ObjectIdentifier(self))
    }

    public var now: Date { Date() }

    public var inLoop: Bool { DispatchQueue.getSpecific(key: key) == ObjectIdentifier(self) }

    public func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    @discardableResult
    public func schedule(at deadline: Date, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let handle = ScheduledWork()
        let delay = max(0, deadline.timeIntervalSinceNow)
        queue.asyncAfter(deadline: .now() + delay) {
            if !handle.isCancelled { work() }
        }
        return handle
    }

    /// Runs `body` inside the loop and waits for its result. Never call it from inside the loop.
    public func sync<R: Sendable>(_ body: @Sendable () -> R) -> R {
        precondition(!inLoop, "RealtimeLoop.sync called from inside the loop would deadlock")
        return queue.sync(execute: body)
    }
}
