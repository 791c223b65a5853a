/// The caller's share of a batch: chunks it answers and hands to `body` at once, and up to `aheadLimit` it
/// answers ahead, while a worker still answers a chunk before them, to hand on when the batch's order reaches
/// them.
///
/// Why more than one ahead: a worker whose processor is taken from it for a while (two shared cores) would
/// otherwise stop the caller too, which after one chunk ahead could only wait for it; with two the caller
/// answers the worker's share meanwhile. Each costs a chunk of answers (768 KiB) while held.
final class BatchCallerChunks {
    static let aheadLimit = 2

    private let database: PlacesDatabase
    private let batch: SortedBatch
    private var memory = AnswerMemory(remembers: true)
    private let entryMemory: ScratchMemory<SpatialOrder.Entry>
    /// The buffers of chunks answered ahead, mapped when first needed (a batch on one thread never answers ahead).
    private var aheadMemory: [ScratchMemory<PlaceDescription?>] = []
    /// The chunks answered ahead and not yet handed on in full, oldest first.
    private var held: [Held] = []

    /// A chunk answered ahead into `aheadMemory[buffer]`, of which answers `delivered..<count` are still held.
    private struct Held {
        var chunk: Int
        var buffer: Int
        var delivered: Int
        var count: Int
    }

    /// `batch` must stay valid while this lives.
    init(database: PlacesDatabase, batch: SortedBatch) {
        self.database = database
        self.batch = batch
        entryMemory = ScratchMemory(
            count: Swift.min(batch.coordinates.count, SpatialOrder.chunkSize), hugePages: false)
        held.reserveCapacity(Self.aheadLimit)
    }

    deinit {
        for chunk in held {
            guard let answers = aheadMemory[chunk.buffer].elements.baseAddress else { continue }
            (answers + chunk.delivered).deinitialize(count: chunk.count - chunk.delivered)
        }
    }

    /// The oldest chunk answered ahead and not yet handed on in full.
    var aheadChunk: Int? { held.first?.chunk }

    /// Whether another chunk may be answered ahead.
    var canAnswerAhead: Bool { held.count < Self.aheadLimit }

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

    /// Answers chunk `chunk` into a buffer of its own, to hand on with `deliverAhead` (`canAnswerAhead` must hold).
    func answerAhead(_ chunk: Int) {
        precondition(canAnswerAhead, "at most \(Self.aheadLimit) chunks answered ahead at a time")
        let buffer = (0..<Self.aheadLimit).first { candidate in !held.contains { $0.buffer == candidate } } ?? 0
        while aheadMemory.count <= buffer {
            aheadMemory.append(ScratchMemory(count: SpatialOrder.chunkSize, hugePages: false))
        }
        guard let answers = aheadMemory[buffer].elements.baseAddress else { return }
        var memory = self.memory
        defer { self.memory = memory }
        let count = batch.answer(chunk, by: database, into: answers, entries: entryMemory.elements, memory: &memory)
        held.append(Held(chunk: chunk, buffer: buffer, delivered: 0, count: count))
    }

    /// Hands the oldest chunk answered ahead to `body`.
    func deliverAhead(_ body: (_ index: Int, _ place: PlaceDescription?) throws -> Void) rethrows {
        guard let oldest = held.first, let answers = aheadMemory[oldest.buffer].elements.baseAddress else { return }
        let first = batch.positions(ofChunk: oldest.chunk).lowerBound
        var delivered = oldest.delivered
        // Noted before each call, so that a body that throws leaves exactly the answers it was not handed.
        defer { if !held.isEmpty, held[0].chunk == oldest.chunk { held[0].delivered = delivered } }
        while delivered < oldest.count {
            let position = delivered
            delivered += 1
            try body(batch.index(at: first + position), (answers + position).move())
        }
        held.removeFirst()
    }
}
