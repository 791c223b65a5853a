import Foundation
import LocationCore
import LocationPersistence
import LocationProtocol
import TestSupport
import Testing

@Suite struct LastLocationStoreTests {
    static let berlin = Fix(
        latitude: 52.520008, longitude: 13.404954, altitude: 34.5, ellipsoidalAltitude: 78.25,
        horizontalAccuracy: 4.75, verticalAccuracy: 3.5, speed: 12.625, speedAccuracy: 0.5,
        course: 271.125, courseAccuracy: 2.5, timestamp: Date(timeIntervalSince1970: 1_800_000_000.123_456),
        isSimulated: true, isProducedByAccessory: true, floor: 3)

    @Test func roundTrip() throws {
        try withTemporaryDirectory { root in
            let store = try LastLocationStore(directory: root)
            #expect(try store.load() == nil)
            try store.save(Self.berlin)
            #expect(try store.load() == Self.berlin)
            // A later daemon (a new store on the same directory) finds it.
            #expect(try LastLocationStore(directory: root).load() == Self.berlin)

            let invalid = Fix(latitude: 0, longitude: 0, horizontalAccuracy: -1, timestamp: Date(timeIntervalSince1970: 0))
            try store.save(invalid)
            #expect(try store.load() == invalid)
        }
    }

    @Test func aSaveAfterTheDirectoryWasRemovedWritesTheKeyAgain() throws {
        try withTemporaryDirectory { root in
            let state = root.appendingPathComponent("state")
            let store = try LastLocationStore(directory: state)
            try store.save(Self.berlin)
            try FileManager.default.removeItem(at: state)
            try store.save(Self.berlin)
            // A later daemon creates no new key: the one the location was sealed with is there.
            #expect(try LastLocationStore(directory: state).load() == Self.berlin)
            let mode = try FileManager.default.attributesOfItem(atPath: state.appendingPathComponent("key").path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test func nonFiniteValuesSurvive() throws {
        try withTemporaryDirectory { root in
            let store = try LastLocationStore(directory: root)
            var odd = Self.berlin
            odd.altitude = .nan
            odd.speed = .infinity
            try store.save(odd)
            let loaded = try #require(try store.load())
            #expect(loaded.altitude.isNaN && loaded.speed == .infinity && loaded.latitude == odd.latitude)
        }
    }

    @Test func fileHoldsNoPlaintext() throws {
        try withTemporaryDirectory { root in
            try LastLocationStore(directory: root).save(Self.berlin)
            let url = root.appendingPathComponent(LastLocationStore.fileName)
            let bytes = try Data(contentsOf: url)
            // The control: the sealed plaintext does spell these out.
            let key = try SealingKey.loadOrCreate(at: root.appendingPathComponent(LastLocationStore.keyFileName))
            let plaintext = try #require(try SealedFile(url: url, key: key).read())
            // Several characters each: random ciphertext holds any one byte by chance.
            for text in ["52.520008", "13.404954", "34.5", "271.125", "latitude", "longitude", "timestamp",
                         "horizontalAccuracy", "\"fix\"", "version"] {
                #expect(plaintext.contains(text), "the plaintext spells \(text)")
                #expect(!bytes.contains(text), "\(text) appears in the sealed file")
            }
        }
    }

    @Test func layoutAndPermissions() throws {
        try withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("var/lib/corelocation")
            try LastLocationStore(directory: directory).save(Self.berlin)
            #expect(LastLocationStore.fileName == "last-location.sealed" && LastLocationStore.keyFileName == "key")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["key", "last-location.sealed"])
            #expect(permissions(of: directory.path) == 0o700)
            #expect(permissions(of: directory.appendingPathComponent("key").path) == 0o600)
            #expect(permissions(of: directory.appendingPathComponent("last-location.sealed").path) == 0o600)
        }
    }

    @Test func tamperedFileIsAnError() throws {
        try withTemporaryDirectory { root in
            let store = try LastLocationStore(directory: root)
            try store.save(Self.berlin)
            let url = root.appendingPathComponent(LastLocationStore.fileName)
            var bytes = try Data(contentsOf: url)
            bytes[bytes.count / 2] ^= 0x80
            try bytes.write(to: url)
            #expect(throws: PersistenceError.tampered(path: url.path)) { try store.load() }
        }
    }

    @Test func replacedKeyCannotOpenTheOldLocation() throws {
        try withTemporaryDirectory { root in
            try LastLocationStore(directory: root).save(Self.berlin)
            try FileManager.default.removeItem(at: root.appendingPathComponent(LastLocationStore.keyFileName))
            // A new key is made; the old location is unreadable with it, and says so.
            let store = try LastLocationStore(directory: root)
            #expect(throws: PersistenceError.tampered(path: root.appendingPathComponent(LastLocationStore.fileName).path)) {
                try store.load()
            }
        }
    }

    @Test func badKeyStopsTheStore() throws {
        try withTemporaryDirectory { root in
            let key = root.appendingPathComponent(LastLocationStore.keyFileName)
            try Data(repeating: 7, count: 16).write(to: key)
            #expect(throws: PersistenceError.self) { try LastLocationStore(directory: root) }
            #expect(try Data(contentsOf: key) == Data(repeating: 7, count: 16))
        }
    }

    @Test func authenticButForeignContentIsUndecodable() throws {
        try withTemporaryDirectory { root in
            let store = try LastLocationStore(directory: root)
            let key = try SealingKey.loadOrCreate(at: root.appendingPathComponent(LastLocationStore.keyFileName))
            let file = SealedFile(url: root.appendingPathComponent(LastLocationStore.fileName), key: key)
            for content in ["not json", #"{"version": 2, "fix": {}}"#, #"{"version": 1}"#] {
                try file.write(Data(content.utf8))
                let error = #expect(throws: PersistenceError.self) { try store.load() }
                guard case .undecodable? = error else {
                    Issue.record("expected undecodable for \(content), got \(String(describing: error))")
                    continue
                }
            }
        }
    }
}
