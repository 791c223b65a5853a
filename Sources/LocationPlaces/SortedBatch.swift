/// A batch's points in the order it answers them: the coordinates, their sorted key-and-offset words
/// (`SpatialOrder.sortedKeys`) and the index the caller's collection gives the first point. What the caller's
/// and the workers' chunks read (never write); valid while the coordinates and the words are.
struct SortedBatch: @unchecked Sendable {
    let coordinates: UnsafeBufferPointer<(latitude: Double, longitude: Double)>
    let sorted: UnsafeMutableBufferPointer<UInt64>
    let firstIndex: Int

    var chunkCount: Int { SpatialOrder.chunkCount(coordinates.count) }

    /// The sorted positions of chunk `chunk`.
    func positions(ofChunk chunk: Int) -> Range<Int> {
        SpatialOrder.positions(ofChunk: chunk, count: coordinates.count)
    }

    /// The caller's index of the point at sorted `position`.
    @inline(__always)
    func index(at position: Int) -> Int { firstIndex + offset(at: position) }

    /// The offset in `coordinates` of the point at sorted `position`: the word's low `offsetBits`.
    @inline(__always)
    private func offset(at position: Int) -> Int {
        Int(truncatingIfNeeded: sorted[position] & ((1 << SpatialOrder.offsetBits) - 1))
    }

    /// Chunk `chunk`'s points, copied into `entries` (room for a chunk) in a pass whose loads are independent
    /// of each other, so they overlap, where looking each point up while answering it would wait for a cache
    /// miss per point.
    @inline(__always)
    func gather(
        _ chunk: Int, into entries: UnsafeMutableBufferPointer<SpatialOrder.Entry>
    ) -> UnsafeBufferPointer<SpatialOrder.Entry> {
        let positions = positions(ofChunk: chunk)
        for position in positions {
            let offset = offset(at: position)
            let point = coordinates[offset]
            entries[position - positions.lowerBound] = SpatialOrder.Entry(
                index: firstIndex + offset, latitude: point.latitude, longitude: point.longitude)
        }
        return UnsafeBufferPointer(rebasing: entries[0..<positions.count])
    }

    /// Chunk `chunk`'s answers from `database`, initialised in order at `answers` (room for a chunk; `entries`
    /// holds the gathered points meanwhile); how many.
    func answer(
        _ chunk: Int, by database: PlacesDatabase, into answers: UnsafeMutablePointer<PlaceDescription?>,
        entries: UnsafeMutableBufferPointer<SpatialOrder.Entry>, memory: inout AnswerMemory
    ) -> Int {
        let points = gather(chunk, into: entries)
        for (position, point) in points.enumerated() {
            (answers + position).initialize(
                to: database.reverseGeocode(latitude: point.latitude, longitude: point.longitude, memory: &memory))
        }
        return points.count
    }
}
