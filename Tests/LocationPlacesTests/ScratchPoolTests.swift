import Testing
@testable import LocationPlaces

/// A batch's working memory goes back to its database's pool and serves the next batch, within the pool's limits.
@Suite struct ScratchPoolTests {
    @Test func releasedMemoryServesTheNextRequestOfItsSize() {
        let pool = ScratchPool()
        var first: ScratchMemory<UInt64>? = ScratchMemory(count: 300_000, pool: pool)
        let address = first!.elements.baseAddress
        first = nil
        #expect(pool.keptCount == 1)
        let second = ScratchMemory<UInt64>(count: 300_000, pool: pool)
        #expect(second.elements.baseAddress == address)
        #expect(pool.keptCount == 0)
        // Uninitialised memory, written and read as fresh memory is.
        second.elements.initialize(repeating: 7)
        #expect(second.elements.allSatisfy { $0 == 7 })
    }

    @Test func aMappingServesNoRequestOfOtherAdviceOrLessThanHalfItsSize() {
        let pool = ScratchPool()
        var large: ScratchMemory<UInt64>? = ScratchMemory(count: 1_000_000, pool: pool)
        let address = large!.elements.baseAddress
        large = nil
        let small = ScratchMemory<UInt64>(count: 100_000, pool: pool)
        #expect(small.elements.baseAddress != address)
        let otherAdvice = ScratchMemory<UInt64>(count: 1_000_000, hugePages: false, pool: pool)
        #expect(otherAdvice.elements.baseAddress != address)
        let larger = ScratchMemory<UInt64>(count: 1_500_000, pool: pool)
        #expect(larger.elements.baseAddress != address, "the kept mapping is too small for it")
        #expect(pool.keptCount == 1)
        let same = ScratchMemory<UInt64>(count: 900_000, pool: pool)
        #expect(same.elements.baseAddress == address)
    }

    @Test func thePoolKeepsNoMoreThanItsLimits() {
        let pool = ScratchPool()
        var buffers: [ScratchMemory<UInt8>] = (0...ScratchPool.keptMappings).map { _ in
            ScratchMemory(count: 4_096, hugePages: false, pool: pool)
        }
        buffers.removeAll()
        #expect(pool.keptCount == ScratchPool.keptMappings)

        let bytesPool = ScratchPool()
        do {
            let huge = ScratchMemory<UInt8>(count: ScratchPool.keptBytes + 1, hugePages: false, pool: bytesPool)
            #expect(huge.elements.count == ScratchPool.keptBytes + 1)
        }
        #expect(bytesPool.keptCount == 0, "a mapping beyond the pool's bytes goes back to the system")
    }

    @Test func aBatchLeavesItsMemoryForTheNextWhichAnswersTheSame() throws {
        let database = try PlacesDatabase.open(path: packageDatabase().path)
        #expect(database.scratchPool.keptCount == 0)
        let coordinates = BatchReverseGeocodingTests.points(count: 50_000, seed: 0x5C4A)
        let first = database.reverseGeocode(coordinates, threads: 2)
        // The sort's two buffers at least; each worker's ring and points and the caller's points too.
        #expect(database.scratchPool.keptCount >= 2)
        let second = database.reverseGeocode(coordinates, threads: 2)
        #expect(first == second)
        for index in stride(from: 0, to: coordinates.count, by: 97) {
            let point = coordinates[index]
            #expect(second[index] == database.reverseGeocode(latitude: point.latitude, longitude: point.longitude))
        }
    }
}
