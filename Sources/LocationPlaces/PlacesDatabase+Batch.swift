import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reverse geocoding of many points at once, for servers and tools that name a whole track or log:
/// the same answers as one `reverseGeocode(latitude:longitude:)` call a point, found in `SpatialOrder`
/// so that neighbouring points share the database reads they need.
extension PlacesDatabase {
    /// Answers every coordinate, handing each answer to `body` with the coordinate's index in
    /// `coordinates` — in spatial order, not index order. `nil` for coordinates that are not finite or
    /// out of range, as one call answers. Beyond the answers, it needs 16 bytes a point while it runs
    /// (and a copy of the coordinates when the collection does not store them contiguously), and ~1.2 MB for
    /// each thread beyond the caller's; the database keeps that memory for its next batch (at most 64 MiB,
    /// `ScratchPool`), where it need not be faulted in again.
    ///
    /// `threads`: at most this many threads answer (the caller's among them; 1 answers on the caller's
    /// alone). The sort is split over them, and they take the sorted points' chunks (16,384 points) as each
    /// is free; `body` is called on the caller's thread only, one answer after another, chunk by chunk,
    /// each chunk's points in spatial order. On one thread the chunks come in spatial order too; with more,
    /// in the order they are answered.
    public func reverseGeocode<Points: RandomAccessCollection>(
        _ coordinates: Points, threads: Int = PlacesDatabase.batchThreads,
        _ body: (_ index: Int, _ place: PlaceDescription?) throws -> Void
    ) rethrows where Points.Element == (latitude: Double, longitude: Double), Points.Index == Int {
        let first = coordinates.startIndex
        let answered: Void? = try coordinates.withContiguousStorageIfAvailable { buffer in
            try reverseGeocode(buffer, firstIndex: first, threads: threads, body)
        }
        if answered == nil {
            try Array(coordinates).withUnsafeBufferPointer {
                try reverseGeocode($0, firstIndex: first, threads: threads, body)
            }
        }
    }

    /// Every coordinate's answer, in the coordinates' order (`threads` as for `reverseGeocode(_:threads:_:)`).
    public func reverseGeocode<Points: RandomAccessCollection>(
        _ coordinates: Points, threads: Int = PlacesDatabase.batchThreads
    ) -> [PlaceDescription?] where Points.Element == (latitude: Double, longitude: Double), Points.Index == Int {
        var answers = [PlaceDescription?](repeating: nil, count: coordinates.count)
        let first = coordinates.startIndex
        reverseGeocode(coordinates, threads: threads) { index, place in answers[index - first] = place }
        return answers
    }

    private func reverseGeocode(
        _ coordinates: UnsafeBufferPointer<(latitude: Double, longitude: Double)>, firstIndex: Int, threads: Int,
        _ body: (_ index: Int, _ place: PlaceDescription?) throws -> Void
    ) rethrows {
        guard !coordinates.isEmpty else { return }
        let order = SpatialOrder.sortedKeys(of: coordinates, threads: threads, pool: scratchPool)
        try withExtendedLifetime(order) {
            let batch = SortedBatch(coordinates: coordinates, sorted: order.elements, firstIndex: firstIndex)
            let chunkCount = batch.chunkCount
            let claims = BatchClaims(chunkCount: chunkCount)
            let anyReady = DispatchSemaphore(value: 0)
            let workers = (0..<Swift.max(0, Swift.min(threads, chunkCount) - 1)).map { _ in
                BatchWorker(database: self, batch: batch, claims: claims, anyReady: anyReady)
            }
            for worker in workers { worker.start() }
            defer { for worker in workers { worker.finish() } }
            let own = BatchCallerChunks(database: self, batch: batch)
            // Each chunk is handed on by the caller as soon as it is answered, whichever thread answered it: the
            // workers' first, then one of the caller's own, answered straight into `body`. Handing the chunks
            // on in the sorted order instead made the caller answer most of its chunks into buffers while a
            // worker finished the chunk before them, and then copy them out (near places, both cores:
            // 90.1 → 84.5 ns a point, 10 alternating rounds).
            var handedOn = 0
            while handedOn < chunkCount {
                for worker in workers {
                    while try worker.deliverReady(body) { handedOn += 1 }
                }
                if let chunk = claims.take() {
                    try own.answer(chunk, body)
                    handedOn += 1
                } else if handedOn < chunkCount {
                    // Every chunk is taken and a worker's is still being answered. A signal is left over for
                    // each chunk handed on without waiting, so this may return at once; the loop then looks again.
                    anyReady.wait()
                }
            }
        }
    }

    /// Threads a batch uses by default: the processors online (at most 8).
    public static var batchThreads: Int { Swift.min(8, processorsOnline()) }

    /// The processors online. Not `ProcessInfo`: its first use costs a batch ~2 MB of peak memory.
    static func processorsOnline() -> Int {
        Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
