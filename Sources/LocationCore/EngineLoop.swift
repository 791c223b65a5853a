import Foundation

/// The single place where the engine and the sources get time and run work.
///
/// Everything the engine does happens inside one loop, one piece of work at a time, so engine state
/// needs no locks. `RealtimeLoop` runs on a dispatch queue and the wall clock; `VirtualLoop` runs only
/// when a test advances it, so an hour of driving replays in milliseconds and always the same way.
public protocol EngineLoop: AnyObject, Sendable {
    /// The current time as this loop sees it.
    var now: Date { get }
    /// True when the caller is running inside this loop.
    var inLoop: Bool { get }
    /// Runs `work` inside the loop as soon as possible.
    func execute(_ work: @escaping @Sendable () -> Void)
    /// Runs `work` inside the loop at `deadline` (at once when the deadline has passed).
    @discardableResult
    func schedule(at deadline: Date, _ work: @escaping @Sendable () -> Void) -> ScheduledWork
}

extension EngineLoop {
    /// Runs `work` inside the loop after `delay` seconds of loop time.
    @discardableResult
    public func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        schedule(at: now.addingTimeInterval(max(0, delay)), work)
    }

    /// Traps when called from outside the loop: engine state is only ever touched inside it.
    public func preconditionInLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(inLoop, "must be called inside the engine loop", file: file, line: line)
    }
}

/// A handle to scheduled work; cancelling it before it runs means it never runs.
public final class ScheduledWork: Sendable {
    private let cancelled = Locked(false)

    public init() {}

    public func cancel() { cancelled.withLock { $0 = true } }

    public var isCancelled: Bool { cancelled.withLock { $0 } }
}
