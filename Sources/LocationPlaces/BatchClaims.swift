#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Which thread of a batch answers which chunk: each takes the lowest chunk no thread has taken yet when it is
/// free to answer one, so a slower thread (the caller also hands every answer to `body`) answers fewer.
final class BatchClaims: @unchecked Sendable {
    let count: Int
    private let next = Atomic<Int>(0)
    /// Per chunk, the worker that took it (`BatchWorker` index), -1 until a worker has: the caller reads it
    /// to know whose answers to wait for.
    private let owners: UnsafeMutablePointer<Atomic<Int>>

    init(chunkCount: Int) {
        count = chunkCount
        owners = .allocate(capacity: Swift.max(1, chunkCount))
        for chunk in 0..<chunkCount { (owners + chunk).initialize(to: Atomic(-1)) }
    }

    deinit {
        owners.deinitialize(count: count)
        owners.deallocate()
    }

    /// The lowest chunk not yet taken, now `worker`'s (`nil` for the caller); `nil` when every chunk is taken.
    func take(for worker: Int?) -> Int? {
        var chunk = next.load(ordering: .relaxed)
        while chunk < count {
            let (taken, found) = next.compareExchange(
                expected: chunk, desired: chunk + 1, ordering: .acquiringAndReleasing)
            if taken {
                if let worker { owners[chunk].store(worker, ordering: .releasing) }
                return chunk
            }
            chunk = found
        }
        return nil
    }

    /// Takes `chunk` for the caller when it is the lowest not yet taken; false when a worker has it.
    func take(_ chunk: Int) -> Bool {
        next.compareExchange(expected: chunk, desired: chunk + 1, ordering: .acquiringAndReleasing).exchanged
    }

    /// The worker that took `chunk`, which one has (`take(_:)` said false): it notes itself a few instructions
    /// after taking it (the processor is yielded meanwhile: the worker may have been preempted in between).
    func owner(of chunk: Int) -> Int {
        while true {
            let owner = owners[chunk].load(ordering: .acquiring)
            if owner >= 0 { return owner }
            sched_yield()
        }
    }
}
