import Foundation

/// A value behind a lock; the small building block for the few types shared across threads.
///
/// (Synchronization.Mutex is not `Sendable`-friendly as a stored property of a class on every toolchain
/// we target, so this wraps NSLock.)
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) { self.value = value }

    @discardableResult
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
