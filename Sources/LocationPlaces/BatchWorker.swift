import Foundation
import Synchronization

/// A thread beside a batch's caller that answers chunks of the sorted points (the lowest not yet taken,
/// `BatchClaims`) into a ring of `slots` chunks of answers, which the caller hands on as they are ready: the
/// caller's `body` is called on the caller's thread only, each chunk's answers in spatial order.
///
/// Why a ring of two: the worker answers its next chunk while the caller answers one of its own, and at most
/// two chunks of answers wait (768 KB for 16,384-point chunks), which keeps a batch's memory what the sort's
/// needs. Four measured no faster.
///
/// Synchronisation: a slot is the worker's between a `free` wait and the `ready` signal after it, and the
/// caller's between a `ready` wait and the `free` signal after it (the slot's chunk number is written before
/// the signal and read after the wait); `produced` and `held` are the worker's, `consumed` the caller's.
/// Every `ready` signal also signals `anyReady`, which the batch shares among its workers: a caller with no
/// chunk left to take waits on it for whichever worker finishes first.
final class BatchWorker: @unchecked Sendable {
    static let slots = 2

    private let database: PlacesDatabase
    private let batch: SortedBatch
    private let claims: BatchClaims
    private let anyReady: DispatchSemaphore

    /// Made with no tokens and given `slots` in `init`: libdispatch stops the process when a semaphore is
    /// freed holding fewer tokens than it was made with, as `free` does after a batch whose body threw.
    private let free = DispatchSemaphore(value: 0)
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let cancelled = Atomic<Bool>(false)
    /// From the database's pool, as the sort's words are (`ScratchMemory`).
    private let ring: ScratchMemory<PlaceDescription?>
    private let entryMemory: ScratchMemory<SpatialOrder.Entry>
    private var answers: UnsafeMutablePointer<PlaceDescription?> { ring.elements.baseAddress! }
    private var entries: UnsafeMutableBufferPointer<SpatialOrder.Entry> { entryMemory.elements }
    private var produced = 0
    private var consumed = 0
    /// Answers each slot holds (the worker's: it drops a slot's answers itself, before answering into it again).
    private var held = [Int](repeating: 0, count: BatchWorker.slots)
    /// The chunk each slot holds.
    private let slotChunks = UnsafeMutablePointer<Int>.allocate(capacity: BatchWorker.slots)

    /// `batch` must stay valid until `finish()` returns.
    init(database: PlacesDatabase, batch: SortedBatch, claims: BatchClaims, anyReady: DispatchSemaphore) {
        self.database = database
        self.batch = batch
        self.claims = claims
        self.anyReady = anyReady
        ring = ScratchMemory(count: Self.slots * SpatialOrder.chunkSize, hugePages: false, pool: database.scratchPool)
        entryMemory = ScratchMemory(count: SpatialOrder.chunkSize, hugePages: false, pool: database.scratchPool)
        for _ in 0..<Self.slots { free.signal() }
    }

    deinit {
        slotChunks.deallocate()
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "places-batch"
        thread.start()
    }

    private func run() {
        var memory = AnswerMemory(remembers: true)
        while true {
            free.wait()
            if cancelled.load(ordering: .acquiring) { break }
            guard let chunk = claims.take() else {
                free.signal()
                break
            }
            // The caller only borrowed the answers it handed on: they are dropped here, on the thread that made
            // them, so that their reference counts never move between the processors' caches.
            let slot = answers + (produced % Self.slots) * SpatialOrder.chunkSize
            slot.deinitialize(count: held[produced % Self.slots])
            held[produced % Self.slots] = batch.answer(
                chunk, by: database, into: slot, entries: entries, memory: &memory)
            slotChunks[produced % Self.slots] = chunk
            produced += 1
            ready.signal()
            anyReady.signal()
        }
        // Every slot back from the caller before its answers are dropped: `finish()` hands back the ones it will
        // not read.
        for _ in 0..<Self.slots { free.wait() }
        for (slot, count) in held.enumerated() {
            (answers + slot * SpatialOrder.chunkSize).deinitialize(count: count)
        }
        finished.signal()
    }

    /// Hands the oldest chunk this worker has answered and the caller not yet handed on to `body`, with the
    /// coordinates' indexes; false, at once, when there is none.
    func deliverReady(_ body: (_ index: Int, _ place: PlaceDescription?) throws -> Void) rethrows -> Bool {
        guard ready.wait(timeout: .now()) == .success else { return false }
        let slot = answers + (consumed % Self.slots) * SpatialOrder.chunkSize
        let positions = batch.positions(ofChunk: slotChunks[consumed % Self.slots])
        consumed += 1
        defer { free.signal() }
        for next in 0..<positions.count {
            // Moved out and back, not copied: a copy is a retain here and a release after, on reference counts
            // the worker's processor keeps changing.
            let answer = (slot + next).move()
            defer { (slot + next).initialize(to: answer) }
            try body(batch.index(at: positions.lowerBound + next), answer)
        }
        return true
    }

    /// Stops the worker after the chunk it is answering and waits for its thread to end (which drops every
    /// answer it made).
    func finish() {
        cancelled.store(true, ordering: .releasing)
        // Enough to wake a worker waiting for a slot and for its final wait for all of them, whatever the
        // caller did not read (at most `slots` chunks the worker answered ahead).
        for _ in 0...Self.slots { free.signal() }
        finished.wait()
    }
}
