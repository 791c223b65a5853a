import Foundation
import LocationPersistence
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SealedFileTests {
    private func sealed(_ root: URL, name: String = "data.sealed", keyName: String = "key") throws -> SealedFile {
        SealedFile(url: root.appendingPathComponent(name), key: try SealingKey.loadOrCreate(at: root.appendingPathComponent(keyName)))
    }

    @Test func roundTripAndMissingFile() throws {
        try withTemporaryDirectory { root in
            let file = try sealed(root)
            #expect(try file.read() == nil)
            for plaintext in [Data(), Data("short".utf8), Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 31) })] {
                try file.write(plaintext)
                #expect(try file.read() == plaintext)
            }
        }
    }

    @Test func layoutIsNonceCiphertextTagWithNoPlaintext() throws {
        try withTemporaryDirectory { root in
            let file = try sealed(root)
            let plaintext = Data("the secret plaintext, twice: the secret plaintext".utf8)
            try file.write(plaintext)
            let first = try Data(contentsOf: file.url)
            #expect(first.count == 12 + plaintext.count + 16)
            #expect(!first.contains("secret") && !first.contains("plaintext"))
            // A fresh nonce every write: the same plaintext never seals to the same bytes.
            try file.write(plaintext)
            let second = try Data(contentsOf: file.url)
            #expect(second != first && second.prefix(12) != first.prefix(12))
        }
    }

    @Test func filesArePrivateAndWritesLeaveNothingBehind() throws {
        try withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("a/b")
            let key = try SealingKey.loadOrCreate(at: root.appendingPathComponent("key"))
            let file = SealedFile(url: directory.appendingPathComponent("data.sealed"), key: key)
            for index in 0..<5 { try file.write(Data("write \(index)".utf8)) }
            #expect(permissions(of: directory.path) == 0o700)
            #expect(permissions(of: file.url.path) == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["data.sealed"])
        }
    }

    @Test func everyChangedByteIsDetected() throws {
        try withTemporaryDirectory { root in
            let file = try sealed(root)
            try file.write(Data("lat 52.520008 lon 13.404954".utf8))
            let original = try Data(contentsOf: file.url)
            // Nonce, ciphertext and tag alike: one flipped bit anywhere is refused.
            for index in original.indices {
                var tampered = original
                tampered[index] ^= 0x01
                try tampered.write(to: file.url)
                #expect(throws: PersistenceError.tampered(path: file.url.path), "byte \(index)") { try file.read() }
            }
            try original.write(to: file.url)
            #expect(try file.read() == Data("lat 52.520008 lon 13.404954".utf8))
        }
    }

    @Test(arguments: [0, 1, 12, 27, 28, 40])
    func truncatedFileIsRefused(length: Int) throws {
        try withTemporaryDirectory { root in
            let file = try sealed(root)
            try file.write(Data("a sealed record of some length".utf8))
            let original = try Data(contentsOf: file.url)
            try original.prefix(length).write(to: file.url)
            #expect(throws: PersistenceError.tampered(path: file.url.path)) { try file.read() }
        }
    }

    @Test func anotherKeyCannotOpenIt() throws {
        try withTemporaryDirectory { root in
            let file = try sealed(root)
            try file.write(Data("mine".utf8))
            let stranger = try sealed(root, keyName: "other-key")
            let error = #expect(throws: PersistenceError.tampered(path: file.url.path)) { try stranger.read() }
            #expect(error?.description.contains("another key") == true)
        }
    }

    @Test func renamedFileDoesNotOpen() throws {
        try withTemporaryDirectory { root in
            let events = try sealed(root, name: "events.sealed")
            try events.write(Data("queued events".utf8))
            let last = try sealed(root, name: "last-location.sealed")
            #expect(rename(events.url.path, last.url.path) == 0)
            #expect(throws: PersistenceError.tampered(path: last.url.path)) { try last.read() }
        }
    }

    @Test func notARegularFileIsAnError() throws {
        try withTemporaryDirectory { root in
            let file = try sealed(root)
            try FileManager.default.createDirectory(at: file.url, withIntermediateDirectories: false)
            #expect(throws: PersistenceError.notARegularFile(path: file.url.path)) { try file.read() }
        }
    }
}
