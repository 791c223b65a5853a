import Foundation
import Synchronization

/// A thread beside a batch's caller that answers every `stride`-th chunk of the sorted points, from chunk
/// `first` on, into a ring of `slots` chunks of answers, which the caller hands on in the batch's order: the
/// caller's `body` is called on the caller's thread only, and the answers still arrive chunk by chunk in
/// spatial order.
///
/// Why a ring of two: the worker answers its next chunk while the caller hands on the previous one, and at
/// most two chunks of answers wait (1.5 MB for 16,384-point chunks), which keeps a batch's memory what the
/// sort's needs.
///
/// Synchronisation: a slot is the worker's between a `free` wait and the `ready` signal after it, and the
/// caller's between a `ready` wait and the `free` signal after it; `produced` and `held` are the worker's,
/// `consumed` the caller's.
final class BatchWorker: @unchecked Sendable {
    static let slots = 2

    private let database: PlacesDatabase
    private let coordinates: UnsafeBufferPointer<(latitude: Double, longitude: Double)>
    private let sorted: UnsafeMutableBufferPointer<UInt64>
    private let firstIndex: Int
    private let chunks: StrideTo<Int>

    /// Made with no tokens and given `slots` in `init`: libdispatch stops the process when a semaphore is
    /// freed holding fewer tokens than it was made with, as `free` does after a batch whose body threw.
    private let free = DispatchSemaphore(value: 0)
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let cancelled = Atomic<Bool>(false)
    /// Mapped, not allocated: the allocator would keep them in its heap after the batch (`ScratchMemory`).
    private let ring = ScratchMemory<PlaceDescription?>(count: BatchWorker.slots * SpatialOrder.chunkSize, hugePages: false)
    private let entryMemory = ScratchMemory<SpatialOrder.Entry>(count: SpatialOrder.chunkSize, hugePages: false)
    private var answers: UnsafeMutablePointer<PlaceDescription?> { ring.elements.baseAddress! }
    private var entries: UnsafeMutableBufferPointer<SpatialOrder.Entry> { entryMemory.elements }
    private var produced = 0
    private var consumed = 0
    /// Answers each slot holds (the worker's: it drops a slot's answers itself, before answering into it again).
    private var held = [Int](repeating: 0, count: BatchWorker.slots)

    /// `sorted` (`SpatialOrder.sortedKeys`) and `coordinates` must stay valid until `finish()` returns.
    init(
        database: PlacesDatabase, coordinates: UnsafeBufferPointer<(latitude: Double, longitude: Double)>,
        sorted: UnsafeMutableBufferPointer<UInt64>, firstIndex: Int, first: Int, stride chunkStride: Int
    ) {
        self.database = database
        self.coordinates = coordinates
        self.sorted = sorted
        self.firstIndex = firstIndex
        chunks = stride(from: first, to: SpatialOrder.chunkCount(coordinates.count), by: chunkStride)
        for _ in 0..<Self.slots { free.signal() }
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "places-batch"
        thread.start()
    }

    private func run() {
        var memory = AnswerMemory(remembers: true)
        for chunk in chunks {
            free.wait()
            if cancelled.load(ordering: .acquiring) { break }
            // The caller only borrowed the answers it handed on: they are dropped here, on the thread that made
            // them, so that their reference counts never move between the processors' caches.
            let slot = answers + (produced % Self.slots) * SpatialOrder.chunkSize
            slot.deinitialize(count: held[produced % Self.slots])
            let points = SpatialOrder.gather(
                SpatialOrder.positions(ofChunk: chunk, count: coordinates.count), of: sorted, from: coordinates,
                firstIndex: firstIndex, into: entries)
            for (position, point) in points.enumerated() {
                (slot + position).initialize(
                    to: database.reverseGeocode(latitude: point.latitude, longitude: point.longitude, memory: &memory))
            }
            held[produced % Self.slots] = points.count
            produced += 1
            ready.signal()
        }
        // Every slot back from the caller before its answers are dropped: `finish()` hands back the ones it will
        // not read.
        for _ in 0..<Self.slots { free.wait() }
        for (slot, count) in held.enumerated() {
            (answers + slot * SpatialOrder.chunkSize).deinitialize(count: count)
        }
        finished.signal()
    }

    /// Waits for this worker's next chunk, which holds sorted `positions`, and hands its answers to `body`
    /// with their coordinates' indexes.
    func deliverNext(
        _ positions: Range<Int>, _ body: (_ index: Int, _ place: PlaceDescription?) throws -> Void
    ) rethrows {
        ready.wait()
        let slot = answers + (consumed % Self.slots) * SpatialOrder.chunkSize
        consumed += 1
        defer { free.signal() }
        for next in 0..<positions.count {
            // Moved out and back, not copied: a copy is a retain here and a release after, on reference counts
            // the worker's processor keeps changing.
            let answer = (slot + next).move()
            defer { (slot + next).initialize(to: answer) }
            try body(firstIndex + SpatialOrder.offset(at: positions.lowerBound + next, of: sorted), answer)
        }
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
