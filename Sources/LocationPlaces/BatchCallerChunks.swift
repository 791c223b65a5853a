/// The caller's share of a batch: chunks it answers and hands to `body` at once, and at most one it answers
/// ahead, while a worker still answers the chunk before it, to hand on when the batch's order reaches it.
final class BatchCallerChunks {
    private let database: PlacesDatabase
    private let batch: SortedBatch
    private var memory = AnswerMemory(remembers: true)
    private let entryMemory: ScratchMemory<SpatialOrder.Entry>
    /// Mapped when first needed (a batch on one thread never answers ahead).
    private var aheadMemory: ScratchMemory<PlaceDescription?>?
    /// The chunk answered ahead, not yet handed on in full.
    private(set) var aheadChunk: Int?
    /// The answers of `aheadChunk` still held: `aheadDelivered..<aheadCount`.
    private var aheadDelivered = 0
    private var aheadCount = 0

    /// `batch` must stay valid while this lives.
    init(database: PlacesDatabase, batch: SortedBatch) {
        self.database = database
        self.batch = batch
        entryMemory = ScratchMemory(
            count: Swift.min(batch.coordinates.count, SpatialOrder.chunkSize), hugePages: false)
    }

    deinit {
        if aheadChunk != nil, let answers = aheadMemory?.elements.baseAddress {
            (answers + aheadDelivered).deinitialize(count: aheadCount - aheadDelivered)
        }
    }

    /// Answers chunk `chunk` and hands each answer to `body` as it is made.
    func answer(_ chunk: Int, _ body: (_ index: Int, _ place: PlaceDescription?) throws -> Void) rethrows {
        // A local copy: the stored property's exclusivity would be checked on every point.
        var memory = self.memory
        defer { self.memory = memory }
        for entry in batch.gather(chunk, into: entryMemory.elements) {
            try body(entry.index, database.reverseGeocode(latitude: entry.latitude, longitude: entry.longitude,
                                                          memory: &memory))
        }
    }

    /// Answers chunk `chunk` into the ahead buffer (none may be held).
    func answerAhead(_ chunk: Int) {
        precondition(aheadChunk == nil, "one chunk answered ahead at a time")
        if aheadMemory == nil { aheadMemory = ScratchMemory(count: SpatialOrder.chunkSize, hugePages: false) }
        guard let answers = aheadMemory?.elements.baseAddress else { return }
        var memory = self.memory
        defer { self.memory = memory }
        let count = batch.answer(chunk, by: database, into: answers, entries: entryMemory.elements, memory: &memory)
        (aheadChunk, aheadDelivered, aheadCount) = (chunk, 0, count)
    }

    /// Hands the chunk answered ahead to `body`.
    func deliverAhead(_ body: (_ index: Int, _ place: PlaceDescription?) throws -> Void) rethrows {
        guard let chunk = aheadChunk, let answers = aheadMemory?.elements.baseAddress else { return }
        let first = batch.positions(ofChunk: chunk).lowerBound
        while aheadDelivered < aheadCount {
            let position = aheadDelivered
            aheadDelivered += 1
            try body(batch.index(at: first + position), (answers + position).move())
        }
        aheadChunk = nil
    }
}
