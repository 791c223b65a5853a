import Foundation
import LocationCore
import LocationPersistence
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SealingKeyTests {
    @Test func createdOnFirstUsePrivateAndStable() throws {
        try withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("state/locationd")
            let url = directory.appendingPathComponent("key")
            let key = try SealingKey.loadOrCreate(at: url)
            #expect(permissions(of: directory.path) == 0o700)
            #expect(permissions(of: url.path) == 0o600)
            let bytes = try Data(contentsOf: url)
            #expect(bytes.count == 32)
            #expect(Set(bytes).count > 8, "random bytes, not a constant")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["key"], "no temporary file left")

            // Loading again uses the same key: what one seals, the other opens.
            let again = try SealingKey.loadOrCreate(at: url)
            #expect(try Data(contentsOf: url) == bytes)
            let file = directory.appendingPathComponent("data.sealed")
            try SealedFile(url: file, key: key).write(Data("hello".utf8))
            #expect(try SealedFile(url: file, key: again).read() == Data("hello".utf8))
        }
    }

    @Test func twoKeysAreDifferent() throws {
        try withTemporaryDirectory { root in
            _ = try SealingKey.loadOrCreate(at: root.appendingPathComponent("a"))
            _ = try SealingKey.loadOrCreate(at: root.appendingPathComponent("b"))
            #expect(try Data(contentsOf: root.appendingPathComponent("a")) != Data(contentsOf: root.appendingPathComponent("b")))
        }
    }

    @Test(arguments: [0, 1, 16, 31, 33, 64])
    func keyOfTheWrongSizeIsAnErrorAndIsKept(size: Int) throws {
        try withTemporaryDirectory { root in
            let url = root.appendingPathComponent("key")
            let contents = Data((0..<size).map { UInt8(truncatingIfNeeded: $0) })
            try contents.write(to: url)
            #expect(chmod(url.path, 0o600) == 0)
            #expect(throws: PersistenceError.badKeySize(path: url.path, size: Int64(size))) {
                try SealingKey.loadOrCreate(at: url)
            }
            #expect(try Data(contentsOf: url) == contents, "never replaced")
            #expect(PersistenceError.badKeySize(path: url.path, size: Int64(size)).description.contains("not 32"))
        }
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660, 0o606])
    func keyReadableByOthersIsAnErrorAndIsKept(mode: Int) throws {
        try withTemporaryDirectory { root in
            let url = root.appendingPathComponent("key")
            _ = try SealingKey.loadOrCreate(at: url)
            let contents = try Data(contentsOf: url)
            #expect(chmod(url.path, mode_t(mode)) == 0)
            #expect(throws: PersistenceError.insecurePermissions(path: url.path, mode: UInt32(mode))) {
                try SealingKey.loadOrCreate(at: url)
            }
            #expect(try Data(contentsOf: url) == contents, "never replaced")
            #expect(permissions(of: url.path) == UInt32(mode), "nor silently repaired")
        }
    }

    @Test func directoryWritableByOthersIsAnError() throws {
        try withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("shared")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            #expect(chmod(directory.path, 0o777) == 0)
            #expect(throws: PersistenceError.insecurePermissions(path: directory.path, mode: 0o777)) {
                try SealingKey.loadOrCreate(at: directory.appendingPathComponent("key"))
            }
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("key").path))
        }
    }

    @Test func keyThatIsNotAFileIsAnError() throws {
        try withTemporaryDirectory { root in
            let folder = root.appendingPathComponent("key")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            #expect(throws: PersistenceError.notARegularFile(path: folder.path)) { try SealingKey.loadOrCreate(at: folder) }

            // A symbolic link is not followed, even to a good key.
            let real = root.appendingPathComponent("real")
            _ = try SealingKey.loadOrCreate(at: real)
            let link = root.appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
            #expect(throws: PersistenceError.notARegularFile(path: link.path)) { try SealingKey.loadOrCreate(at: link) }
        }
    }

    @Test func concurrentCreatorsAgreeOnOneKey() throws {
        try withTemporaryDirectory { root in
            let url = root.appendingPathComponent("key")
            let keys = Locked([SealingKey]())
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                if let key = try? SealingKey.loadOrCreate(at: url) { keys.withLock { $0.append(key) } }
            }
            let all = keys.withLock { $0 }
            #expect(all.count == 8)
            let file = root.appendingPathComponent("probe.sealed")
            try SealedFile(url: file, key: try #require(all.first)).write(Data("same key".utf8))
            for key in all {
                #expect(try SealedFile(url: file, key: key).read() == Data("same key".utf8))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["key", "probe.sealed"])
        }
    }
}
