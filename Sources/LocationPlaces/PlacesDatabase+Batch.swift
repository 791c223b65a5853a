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
    /// (and a copy of the coordinates when the collection does not store them contiguously).
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

    /// Every coordinate's answer, in the coordinates' order.
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
        let order = SpatialOrder.sortedKeys(of: coordinates, threads: threads)
        let chunkCount = SpatialOrder.chunkCount(coordinates.count)
        // Chunk `n` is answered by thread `n % threadCount`: the caller's is thread 0.
        let threadCount = Swift.max(1, Swift.min(threads, chunkCount))
        try withExtendedLifetime(order) {
            let workers = (1..<threadCount).map { first in
                BatchWorker(database: self, coordinates: coordinates, sorted: order.elements, firstIndex: firstIndex,
                            first: first, stride: threadCount)
            }
            for worker in workers { worker.start() }
            defer { for worker in workers { worker.finish() } }
            var memory = AnswerMemory(remembers: true)
            let entries = ScratchMemory<SpatialOrder.Entry>(
                count: Swift.min(coordinates.count, SpatialOrder.chunkSize), hugePages: false)
            defer { withExtendedLifetime(entries) {} }
            for chunk in 0..<chunkCount {
                let positions = SpatialOrder.positions(ofChunk: chunk, count: coordinates.count)
                guard chunk % threadCount == 0 else {
                    try workers[chunk % threadCount - 1].deliverNext(positions, body)
                    continue
                }
                let points = SpatialOrder.gather(positions, of: order.elements, from: coordinates, firstIndex: firstIndex,
                                                 into: entries.elements)
                for entry in points {
                    try body(entry.index, reverseGeocode(latitude: entry.latitude, longitude: entry.longitude,
                                                         memory: &memory))
                }
            }
        }
    }

    /// Threads a batch uses by default: the processors online (at most 8).
    public static var batchThreads: Int { Swift.min(8, usableProcessors()) }

    /// The processors online. Not `ProcessInfo`: its first use costs a batch ~2 MB of peak memory.
    static func usableProcessors() -> Int {
        Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
