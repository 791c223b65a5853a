import LocationNMEA
import SeededRandom
import Testing

/// SwiftNIO's verifier idea: the same bytes fed all at once, one byte at a time and in random
/// chunks give identical events and identical statistics.
@Suite struct DripFeedTests {
    /// Every fixture, then the same again with every kind of damage mixed in.
    static func hostileInput() throws -> [UInt8] {
        var rng = SplitMix64(seed: 2024)
        var bytes: [UInt8] = []
        for name in fixtureNames {
            let lines = try fixture(name).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            for line in lines {
                switch rng.next() % 16 {
                case 0: bytes += line.prefix(Int(rng.next() % UInt64(line.count + 1)))  // cut, no line end
                case 1: bytes += (0..<Int(rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                case 2: bytes += Array("$GPGGA,".utf8) + Array(repeating: UInt8(ascii: "7"), count: 300)
                case 3:
                    var damaged = Array(line)
                    if !damaged.isEmpty { damaged[Int(rng.next() % UInt64(damaged.count))] ^= 0x04 }
                    bytes += damaged + [UInt8(ascii: "\n")]
                case 4: bytes += line.filter { $0 != UInt8(ascii: "\r") } + [UInt8(ascii: "\r")]
                default: bytes += line + [UInt8(ascii: "\n")]
                }
            }
        }
        return bytes
    }

    static func inputs() throws -> [(String, [UInt8])] {
        try fixtureNames.map { ($0, try fixture($0)) } + [("hostile mix", try hostileInput())]
    }

    @Test(arguments: [false, true])
    func oneByteAtATimeMatchesAllAtOnce(allowMissingChecksum: Bool) throws {
        let options = NMEADecoder.Options(allowMissingChecksum: allowMissingChecksum)
        for (name, bytes) in try Self.inputs() {
            let whole = decode(bytes, options: options)
            let drip = decode(bytes, chunks: [1], options: options)
            #expect(drip.events == whole.events, "\(name)")
            #expect(drip.statistics == whole.statistics, "\(name)")
            #expect(!whole.events.isEmpty, "\(name)")
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func randomChunksMatchAllAtOnce(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for (name, bytes) in try Self.inputs() {
            let sizes = (0..<64).map { _ in 1 + Int(rng.next() % 300) }
            let whole = decode(bytes)
            let chunked = decode(bytes, chunks: sizes)
            #expect(chunked.events == whole.events, "\(name)")
            #expect(chunked.statistics == whole.statistics, "\(name)")
        }
    }

    @Test(arguments: [NMEADecoder.maximumLineLength - 1, NMEADecoder.maximumLineLength, NMEADecoder.maximumLineLength + 1,
                      NMEADecoder.maximumLineLength + 2, 2 * NMEADecoder.maximumLineLength + 1, 4096])
    func chunksAroundTheLineLimitMatchAllAtOnce(size: Int) throws {
        let bytes = try Self.hostileInput()
        let whole = decode(bytes)
        let chunked = decode(bytes, chunks: [size, 1, size - 1, 3])
        #expect(chunked.events == whole.events)
        #expect(chunked.statistics == whole.statistics)
    }

    @Test func theHostileMixStillDecodesMostEpochs() throws {
        let clean = try fixtureNames.reduce(0) { $0 + decode(try fixture($1)).events.count }
        let hostile = decode(try Self.hostileInput())
        let s = hostile.statistics
        #expect(s.badChecksum > 0)
        #expect(s.overlong > 0)
        #expect(s.skippedBytes > 0)
        #expect(hostile.events.count > clean / 2, "\(hostile.events.count) of \(clean)")
    }

    @Test func nonContiguousCollectionsAreFedToo() throws {
        let bytes = try fixture("sirf-star4-gps.nmea")
        var decoder = NMEADecoder()
        var events: [NMEAEvent] = []
        decoder.feed(bytes.lazy.map { $0 }) { events.append($0) }
        decoder.finish { events.append($0) }
        #expect(events == decode(bytes).events)
    }
}
