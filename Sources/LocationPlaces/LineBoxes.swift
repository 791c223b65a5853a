/// Every boundary line cut into chunks of at most `chunkSegments` segments, each with its bounding box in
/// its cell's 1/65535 units, computed once at open (~630,000 points: a millisecond or two). A cell's
/// boundary is often one long line whose box is the whole cell; its chunks' boxes are small, so
/// point-in-polygon skips chunks that miss the segment it tests, and the territorial search skips chunks
/// farther than the best coast so far.
final class LineBoxes: @unchecked Sendable {
    static let chunkSegments = 8

    /// Per chunk: `minX, minY, maxX, maxY`. Written only in `init`, then read-only.
    private let boxes: UnsafeMutablePointer<UInt16>
    /// Per chunk: its first point (chunks of a line share their end points).
    private let firstPoints: UnsafeMutablePointer<Int32>
    /// Per line: its first chunk; `lineCount + 1` entries, so line `l`'s chunks are `[start[l], start[l+1])`.
    private let chunkStarts: UnsafeMutablePointer<Int32>
    /// One past the last point of each line, to end the last chunk.
    private let lineEnds: UnsafeMutablePointer<Int32>

    init(_ tables: PlacesTables) {
        var chunkCount = 0
        for line in 0..<tables.lineCount {
            chunkCount += Swift.max(1, (tables.linePointCount(line) - 1 + Self.chunkSegments - 1) / Self.chunkSegments)
        }
        boxes = .allocate(capacity: Swift.max(1, 4 * chunkCount))
        firstPoints = .allocate(capacity: Swift.max(1, chunkCount))
        chunkStarts = .allocate(capacity: tables.lineCount + 1)
        lineEnds = .allocate(capacity: Swift.max(1, tables.lineCount))
        var chunk = 0
        for line in 0..<tables.lineCount {
            chunkStarts[line] = Int32(chunk)
            let first = tables.lineFirstPoint(line), end = first + tables.linePointCount(line)
            lineEnds[line] = Int32(end)
            var start = first
            repeat {
                let stop = Swift.min(end, start + Self.chunkSegments + 1)
                var minX = UInt16.max, minY = UInt16.max, maxX = UInt16.min, maxY = UInt16.min
                for index in start..<stop {
                    let (x, y) = tables.point(index)
                    minX = Swift.min(minX, x)
                    minY = Swift.min(minY, y)
                    maxX = Swift.max(maxX, x)
                    maxY = Swift.max(maxY, y)
                }
                firstPoints[chunk] = Int32(start)
                (boxes[4 * chunk], boxes[4 * chunk + 1], boxes[4 * chunk + 2], boxes[4 * chunk + 3]) = (minX, minY, maxX, maxY)
                chunk += 1
                start = stop - 1
            } while start < end - 1
        }
        chunkStarts[tables.lineCount] = Int32(chunk)
    }

    deinit {
        boxes.deallocate()
        firstPoints.deallocate()
        chunkStarts.deallocate()
        lineEnds.deallocate()
    }

    /// The chunks of `line`.
    @inline(__always) func chunks(ofLine line: Int) -> Range<Int> {
        Int(chunkStarts[line])..<Int(chunkStarts[line + 1])
    }

    /// The points of `chunk` of `line` (at least two).
    @inline(__always) func points(ofChunk chunk: Int, line: Int) -> Range<Int> {
        let first = Int(firstPoints[chunk])
        return first..<Swift.min(Int(lineEnds[line]), first + Self.chunkSegments + 1)
    }

    @inline(__always) func box(_ chunk: Int) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (Double(boxes[4 * chunk]), Double(boxes[4 * chunk + 1]), Double(boxes[4 * chunk + 2]), Double(boxes[4 * chunk + 3]))
    }
}
