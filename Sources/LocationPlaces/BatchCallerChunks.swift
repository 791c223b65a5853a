/// The caller's share of a batch: the chunks it takes, answered and handed to `body` point by point, as one
/// thread answers a whole batch (no buffer between the answer and `body`).
final class BatchCallerChunks {
    private let database: PlacesDatabase
    private let batch: SortedBatch
    private var memory = AnswerMemory(remembers: true)
    private let entryMemory: ScratchMemory<SpatialOrder.Entry>

    /// `batch` must stay valid while this lives.
    init(database: PlacesDatabase, batch: SortedBatch) {
        self.database = database
        self.batch = batch
        entryMemory = ScratchMemory(
            count: Swift.min(batch.coordinates.count, SpatialOrder.chunkSize), hugePages: false,
            pool: database.scratchPool)
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
}
