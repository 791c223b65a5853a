import Synchronization

/// Which thread of a batch answers which chunk: each takes the lowest chunk no thread has taken yet when it is
/// free to answer one, so a slower thread (the caller also hands every answer to `body`) answers fewer.
final class BatchClaims: Sendable {
    let count: Int
    private let next = Atomic<Int>(0)

    init(chunkCount: Int) {
        count = chunkCount
    }

    /// The lowest chunk not yet taken, now the calling thread's; `nil` when every chunk is taken.
    func take() -> Int? {
        let chunk = next.add(1, ordering: .relaxed).oldValue
        return chunk < count ? chunk : nil
    }
}
