import Foundation
import LocationPersistence
import Testing
import TestSupport
@testable import LocationApproximation

@Suite struct SeedTests {
    /// SipHash-2-4's reference vectors (key 00…0f): the empty message and the message 00…07.
    @Test func sipHashMatchesTheReferenceVectors() {
        let hash = SipHash(seed: Array(0..<16) + Array(repeating: 0, count: 16))
        #expect(hash.hash([]) == 0x726f_db47_dd0e_0e31)
        #expect(hash.hash([0x0706_0504_0302_0100]) == 0x93f5_f579_9a93_2462)
    }

    @Test func onlyThirtyTwoBytesMakeASeed() {
        #expect(ApproximateRegionsSeed(bytes: []) == nil)
        #expect(ApproximateRegionsSeed(bytes: Array(repeating: 1, count: 31)) == nil)
        #expect(ApproximateRegionsSeed(bytes: Array(repeating: 1, count: 33)) == nil)
        #expect(ApproximateRegionsSeed(bytes: Array(repeating: 1, count: 32)) != nil)
    }

    /// The seed comes from the state directory's sealing key: the same directory gives the same
    /// layout, another directory another, and the seed is not the key itself.
    @Test func theSeedIsDerivedFromTheStateDirectorysSealingKey() throws {
        let first = try TemporaryDirectory(), second = try TemporaryDirectory()
        defer { first.remove(); second.remove() }
        let seed = try ApproximateRegionsSeed.load(stateDirectory: first.url)
        #expect(try ApproximateRegionsSeed.load(stateDirectory: first.url) == seed)
        #expect(try ApproximateRegionsSeed.load(stateDirectory: second.url) != seed)
        let key = try Data(contentsOf: first.url.appendingPathComponent(LastLocationStore.keyFileName))
        #expect(key.count == 32)
        #expect(Array(key) != seed.bytes)
        let attributes = try FileManager.default.attributesOfItem(atPath: first.url.appendingPathComponent("key").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
