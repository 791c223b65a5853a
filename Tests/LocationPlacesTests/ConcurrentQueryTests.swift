import Dispatch
import Testing
@testable import LocationPlaces
import SeededRandom

/// One database serves every thread: answers from many threads at once equal the serial ones.
@Suite struct ConcurrentQueryTests {
    @Test func concurrentReverseGeocodingMatchesSerial() throws {
        let database = try packageDatabase()
        var generator = SplitMix64(seed: 99)
        let points = (0..<4_000).map { _ in randomPoint(&generator) }
        let serial = points.map { database.reverseGeocode(latitude: $0.latitude, longitude: $0.longitude) }
        let chunks = 8
        let results = ChunkResults(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let slice = points.indices.filter { $0 % chunks == chunk }
            results.store(chunk, slice.map { (index: $0, place: database.reverseGeocode(
                latitude: points[$0].latitude, longitude: points[$0].longitude)) })
        }
        var mismatches = 0
        for chunk in 0..<chunks {
            for (index, place) in results.load(chunk) where place != serial[index] { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(results.total == points.count)
    }
}

/// Per-chunk results written by concurrent workers (each chunk by one worker), read after they finish.
private final class ChunkResults: @unchecked Sendable {
    private var chunks: [[(index: Int, place: PlaceDescription?)]]
    private let lock = DispatchQueue(label: "ChunkResults")

    init(count: Int) { chunks = Array(repeating: [], count: count) }

    func store(_ chunk: Int, _ values: [(index: Int, place: PlaceDescription?)]) {
        lock.sync { chunks[chunk] = values }
    }

    func load(_ chunk: Int) -> [(index: Int, place: PlaceDescription?)] { lock.sync { chunks[chunk] } }

    var total: Int { lock.sync { chunks.reduce(0) { $0 + $1.count } } }
}
