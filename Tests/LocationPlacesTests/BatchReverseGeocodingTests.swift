import Foundation
import Testing
@testable import LocationPlaces
import SeededRandom

/// The batch answers exactly what one call a point answers, for every point, once each.
@Suite struct BatchReverseGeocodingTests {
    /// Cities on every continent, coasts and borders among them: points scattered ~10 km around them
    /// have many neighbours in the batch, so the batch's remembered searches and answers are exercised.
    static let centres: [(latitude: Double, longitude: Double)] = [
        (52.52, 13.405), (48.857, 2.352), (51.507, -0.128), (40.713, -74.006), (35.690, 139.692),
        (37.566, 126.978), (-33.869, 151.209), (-23.551, -46.633), (30.044, 31.236), (19.433, -99.133),
        (28.614, 77.209), (-1.286, 36.817), (47.560, 7.590), (1.352, 103.820), (64.147, -21.942),
        (45.815, 15.982), (-34.604, -58.382), (55.756, 37.617), (25.205, 55.271), (49.610, 6.130),
    ]

    static func points(count: Int, seed: UInt64) -> [(latitude: Double, longitude: Double)] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { index in
            if index % 3 == 0 {
                // Uniform over the sphere: sea, land, ice.
                let latitude = asin(generator.uniform(-1, 1)) * 180 / .pi
                return (latitude, generator.uniform(-180, 180))
            }
            let centre = centres[Int(generator.next() % UInt64(centres.count))]
            return (centre.latitude + generator.uniform(-0.1, 0.1), centre.longitude + generator.uniform(-0.15, 0.15))
        }
    }

    @Test func everyAnswerIsTheSingleCallsAnswer() throws {
        let database = try packageDatabase()
        var coordinates = Self.points(count: 30_000, seed: 0xBA7C4)
        // Points the single call refuses: the batch gives nil for them, in place.
        coordinates += [(.nan, 0), (0, .infinity), (91, 0), (0, -180.5)]
        var answered = [Int](repeating: 0, count: coordinates.count)
        var differing: [Int] = []
        database.reverseGeocode(coordinates) { index, place in
            answered[index] += 1
            let point = coordinates[index]
            if place != database.reverseGeocode(latitude: point.latitude, longitude: point.longitude) {
                differing.append(index)
            }
        }
        #expect(answered.allSatisfy { $0 == 1 })
        #expect(differing.isEmpty, "answers differ at \(differing.prefix(5).map { coordinates[$0] })")
        let localities = coordinates.indices.filter { index in
            database.reverseGeocode(latitude: coordinates[index].latitude,
                                    longitude: coordinates[index].longitude)?.locality != nil
        }
        #expect(localities.count > 15_000, "most points near the cities have a locality")
    }

    @Test func theArrayFormKeepsTheCoordinatesOrder() throws {
        let database = try packageDatabase()
        let coordinates = Self.points(count: 2_000, seed: 7) + [(.nan, .nan)]
        let answers = database.reverseGeocode(coordinates)
        #expect(answers.count == coordinates.count)
        for (point, answer) in zip(coordinates, answers) {
            #expect(answer == database.reverseGeocode(latitude: point.latitude, longitude: point.longitude))
        }
        #expect(answers.last == .some(nil))
        #expect(database.reverseGeocode([(latitude: Double, longitude: Double)]()).isEmpty)
        // A slice keeps its indexes: answers come back for the slice's own positions.
        let slice = coordinates[100..<300]
        var seen: [Int] = []
        database.reverseGeocode(slice) { index, place in
            seen.append(index)
            #expect(place == database.reverseGeocode(latitude: coordinates[index].latitude,
                                                     longitude: coordinates[index].longitude))
        }
        #expect(seen.sorted() == Array(100..<300))
        #expect(database.reverseGeocode(slice) == Array(answers[100..<300]))
        // A collection that stores no coordinates (computed on access) is answered from a copy.
        let computed = (0..<50).lazy.map { coordinates[$0] }
        #expect(database.reverseGeocode(computed) == Array(answers[0..<50]))
    }

    @Test func theSpatialOrderIsAPermutationSortedByItsKey() {
        // More than one chunk, so the chunks' boundaries are crossed.
        let coordinates = Self.points(count: SpatialOrder.chunkSize + 5_000, seed: 3)
            + [(.nan, 0), (-90, -180), (90, 180)]
        var sorted: [SpatialOrder.Entry] = []
        let chunks = SpatialOrder.chunkCount(coordinates.count)
        coordinates.withUnsafeBufferPointer { buffer in
            let order = SpatialOrder.sortedKeys(of: buffer)
            let batch = SortedBatch(coordinates: buffer, sorted: order.elements, firstIndex: 0)
            let chunk = UnsafeMutableBufferPointer<SpatialOrder.Entry>.allocate(capacity: SpatialOrder.chunkSize)
            defer { chunk.deallocate() }
            for number in 0..<chunks {
                sorted += batch.gather(number, into: chunk)
            }
            withExtendedLifetime(order) {}
        }
        #expect(chunks == 2)
        #expect(sorted.count == coordinates.count)
        #expect(Set(sorted.map(\.index)) == Set(coordinates.indices))
        let keys = sorted.map { SpatialOrder.mortonKey(latitude: $0.latitude, longitude: $0.longitude) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(keys.last == (1 << SpatialOrder.keyBits) - 1, "an invalid coordinate sorts last")
        #expect(sorted.allSatisfy { entry in
            let original = coordinates[entry.index]
            return entry.latitude.bitPattern == original.latitude.bitPattern
                && entry.longitude.bitPattern == original.longitude.bitPattern
        })
        // The south-west corner sorts first; one square (1/256°) north sets the lowest latitude bit (bit 1),
        // one square east the lowest longitude bit (bit 0); the next cell east (0.5°) the cell's lowest column
        // bit (bit 14), the next cell north its lowest row bit (bit 15).
        #expect(SpatialOrder.mortonKey(latitude: -90, longitude: -180) == 0)
        #expect(SpatialOrder.mortonKey(latitude: -90 + 1.5 / 256, longitude: -180) == 2)
        #expect(SpatialOrder.mortonKey(latitude: -90, longitude: -180 + 1.5 / 256) == 1)
        #expect(SpatialOrder.mortonKey(latitude: -90, longitude: -179.5) == 1 << 14)
        #expect(SpatialOrder.mortonKey(latitude: -89.5, longitude: -180) == 1 << 15)
        let northEast = SpatialOrder.mortonKey(latitude: 90, longitude: 180)
        #expect(northEast & 0x3FFF == 0x3FFF, "the north-east square of its cell")
        #expect(northEast < (1 << SpatialOrder.keyBits) - 1, "below the invalid key")
    }

    /// Inside a grid cell the order is the candidate trees' (`NearestCandidates`): every point of a quadrant,
    /// at each level, before any point of the next quadrant (south-west, south-east, north-west, north-east),
    /// so a batch walks each tree leaf by leaf and never comes back to a leaf it left.
    @Test func insideACellTheOrderIsTheCandidateTreesQuadrantOrder() {
        // Berlin's cell: south 52.5°, west 13°.
        let (south, west) = (52.5, 13.0)
        func key(_ northward: Double, _ eastward: Double) -> UInt64 {
            SpatialOrder.mortonKey(latitude: south + northward * 0.5, longitude: west + eastward * 0.5)
        }
        let cell = key(0, 0) >> 14
        for (northward, eastward) in [(0.9, 0.9), (0.6, 0.1), (0.1, 0.6), (0.2, 0.2)] {
            #expect(key(northward, eastward) >> 14 == cell)
        }
        // The last point of each quarter before the first of the next, in the cell and in its south-west quarter.
        #expect(key(0.49, 0.49) < key(0.01, 0.51), "the whole south-west quarter before the south-east one")
        #expect(key(0.49, 0.99) < key(0.51, 0.01))
        #expect(key(0.99, 0.49) < key(0.51, 0.51))
        #expect(key(0.24, 0.24) < key(0.01, 0.26))
        #expect(key(0.24, 0.49) < key(0.26, 0.01))
        #expect(key(0.49, 0.24) < key(0.26, 0.26))
    }

    /// Enough points that the sort splits too (two parts of at least `SpatialOrder.minimumPart`) and several
    /// chunks go to each worker: one, two and three threads answer every point once, the same answer, chunk by
    /// chunk — every chunk of the sorted order whole and once, its points in spatial order; on one thread the
    /// chunks in order too.
    @Test(arguments: [1, 2, 3])
    func threadsAnswerWhatOneThreadAnswers(threads: Int) throws {
        let database = try packageDatabase()
        let coordinates = Self.points(count: 2 * SpatialOrder.minimumPart + 3 * SpatialOrder.chunkSize, seed: 0x7EAD)
        let alone = database.reverseGeocode(coordinates, threads: 1)
        var answered = [Int](repeating: 0, count: coordinates.count)
        var differing: [Int] = []
        var handedOn: [Int] = []
        database.reverseGeocode(coordinates, threads: threads) { index, place in
            answered[index] += 1
            if place != alone[index] { differing.append(index) }
            handedOn.append(index)
        }
        #expect(answered.allSatisfy { $0 == 1 })
        #expect(differing.isEmpty, "answers differ at \(differing.prefix(5).map { coordinates[$0] })")

        let chunks = Self.sortedChunks(coordinates)
        var chunkOf = [Int](repeating: -1, count: coordinates.count)
        for (chunk, indexes) in chunks.enumerated() { for index in indexes { chunkOf[index] = chunk } }
        var order: [Int] = []
        var at = 0
        while at < handedOn.count {
            let chunk = chunkOf[handedOn[at]]
            let expected = chunks[chunk]
            #expect(Array(handedOn[at..<Swift.min(handedOn.count, at + expected.count)]) == expected,
                    "chunk \(chunk) handed on whole, in spatial order")
            order.append(chunk)
            at += expected.count
        }
        #expect(order.sorted() == Array(chunks.indices), "every chunk once")
        if threads == 1 { #expect(order == Array(chunks.indices)) }
        #expect(database.reverseGeocode(coordinates, threads: threads) == alone)
    }

    /// The coordinates' indexes in the batch's sorted order, chunk by chunk.
    static func sortedChunks(_ coordinates: [(latitude: Double, longitude: Double)]) -> [[Int]] {
        coordinates.withUnsafeBufferPointer { buffer in
            let order = SpatialOrder.sortedKeys(of: buffer)
            return withExtendedLifetime(order) {
                let batch = SortedBatch(coordinates: buffer, sorted: order.elements, firstIndex: 0)
                return (0..<batch.chunkCount).map { chunk in batch.positions(ofChunk: chunk).map(batch.index(at:)) }
            }
        }
    }

    /// Threads taking chunks at once take each exactly once, and none beyond the last.
    @Test func everyChunkIsTakenOnce() async {
        let claims = BatchClaims(chunkCount: 10_000)
        let taken = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var mine: [Int] = []
                    while let chunk = claims.take() { mine.append(chunk) }
                    return mine
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(taken.sorted() == Array(0..<10_000))
        #expect(claims.take() == nil)
    }

    /// The sort split over threads gives the words the sort on one thread gives (it is stable either way).
    @Test func theSplitSortIsTheSort() {
        let coordinates = Self.points(count: 3 * SpatialOrder.minimumPart + 17, seed: 11) + [(.nan, 0), (90, 180)]
        coordinates.withUnsafeBufferPointer { buffer in
            let one = SpatialOrder.sortedKeys(of: buffer, threads: 1)
            for threads in [2, 3] {
                let split = SpatialOrder.sortedKeys(of: buffer, threads: threads)
                #expect(Array(split.elements) == Array(one.elements))
            }
            // Every word is distinct (its low bits are its point's offset): ascending keys, and ascending
            // offsets among equal keys.
            #expect(zip(one.elements, one.elements.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    /// A body that throws ends the batch with its error, whether it throws at the caller's chunk or at a
    /// worker's, and the worker's thread is stopped and its answers dropped: the next batch answers again.
    @Test(arguments: [100, SpatialOrder.chunkSize + 100, 3 * SpatialOrder.chunkSize + 5])
    func aThrowingBodyStopsTheWorkers(after count: Int) throws {
        struct Enough: Error {}
        let database = try packageDatabase()
        let coordinates = Self.points(count: 5 * SpatialOrder.chunkSize, seed: 21)
        var delivered = 0
        #expect(throws: Enough.self) {
            try database.reverseGeocode(coordinates, threads: 2) { _, _ in
                if delivered == count { throw Enough() }
                delivered += 1
            }
        }
        #expect(delivered == count)
        var again = 0
        database.reverseGeocode(coordinates, threads: 2) { _, place in if place != nil { again += 1 } }
        #expect(again > coordinates.count / 2)
    }
}
