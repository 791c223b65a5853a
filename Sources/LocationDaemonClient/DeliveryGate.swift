import Foundation

/// Hands events to their receiver until it is closed — and not one after: `close()` waits for a
/// delivery in progress on another thread, so once it returns, nothing more arrives.
///
/// The lock is recursive so that a receiver may close from inside its own callback.
final class DeliveryGate<Event: Sendable>: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var receiver: (@Sendable (Event) -> Void)?

    init(_ receiver: @escaping @Sendable (Event) -> Void) {
        self.receiver = receiver
    }

    func deliver(_ event: Event) {
        lock.lock()
        defer { lock.unlock() }
        receiver?(event)
    }

    /// Stops deliveries; also releases the receiver (and whatever it captured).
    func close() {
        lock.lock()
        defer { lock.unlock() }
        receiver = nil
    }

    var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return receiver == nil
    }
}
