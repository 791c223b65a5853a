import Foundation
import LocationPersistence
import TestSupport
import Testing

/// Each app's approximate-location history at rest: sealed, per app, refused when not ours.
@Suite struct ApproximationStoreTests {
    static let app = "org.example.weather"
    static let value = StoredApproximation(
        current: .init(regionID: 0xDEAD_BEEF_0042, latitude: 52.517_036_9, longitude: 13.388_859_9, radius: 2_345.5,
                       timestamp: Date(timeIntervalSinceReferenceDate: 786_000_000.25), isSimulated: true),
        recentReports: [Date(timeIntervalSinceReferenceDate: 785_999_000), Date(timeIntervalSinceReferenceDate: 786_000_000.5)])

    private func store(_ root: URL) throws -> ApproximationStore {
        ApproximationStore(directory: root.appendingPathComponent("approximate"), key: try SealingKey.loadOrCreate(at: root.appendingPathComponent("key")))
    }

    @Test func aHistoryReadsBackInALaterStoreAndRemovesItsFileWhenEmpty() throws {
        try withTemporaryDirectory { root in
            #expect(try store(root).load(appID: Self.app) == StoredApproximation())
            try store(root).save(Self.value, appID: Self.app)
            #expect(try store(root).load(appID: Self.app) == Self.value)
            #expect(try store(root).load(appID: "another.app") == StoredApproximation())
            try store(root).save(StoredApproximation(), appID: Self.app)
            #expect(!FileManager.default.fileExists(atPath: try store(root).fileURL(for: Self.app).path))
        }
    }

    @Test func theFileHoldsNoCoordinateInTheClear() throws {
        try withTemporaryDirectory { root in
            let store = try store(root)
            try store.save(Self.value, appID: Self.app)
            let bytes = try Data(contentsOf: store.fileURL(for: Self.app))
            #expect(!bytes.isEmpty)
            for needle in ["52.517", "13.388", Self.app, "corelocation"] {
                #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(needle) readable on disk")
            }
            let mode = try FileManager.default.attributesOfItem(atPath: store.fileURL(for: Self.app).path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test func anotherAppsFileCopiedOverIsRefused() throws {
        try withTemporaryDirectory { root in
            let store = try store(root)
            try store.save(Self.value, appID: "other.app")
            try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: store.fileURL(for: "other.app"), to: store.fileURL(for: Self.app))
            #expect(throws: PersistenceError.tampered(path: store.fileURL(for: Self.app).path)) { try store.load(appID: Self.app) }
            try store.setAside(appID: Self.app)
            #expect(try store.load(appID: Self.app) == StoredApproximation())
            #expect(FileManager.default.fileExists(atPath: store.fileURL(for: Self.app).path + ApproximationStore.setAsideSuffix))
        }
    }

    @Test(arguments: [
        #"{"app":"a","format":"corelocation.fences","reports":[],"version":1}"#,
        #"{"app":"a","format":"corelocation.approximate","reports":[],"version":2}"#,
        #"{"app":"a","extra":true,"format":"corelocation.approximate","reports":[],"version":1}"#,
        #"{"app":"a","format":"corelocation.approximate","reports":[2,1],"version":1}"#,
        #"{"app":"a","current":{"latitude":91,"longitude":0,"radius":1,"region":"1","simulated":false,"timestamp":0},"format":"corelocation.approximate","reports":[],"version":1}"#,
        #"{"app":"a","current":{"latitude":0,"longitude":0,"radius":0,"region":"1","simulated":false,"timestamp":0},"format":"corelocation.approximate","reports":[],"version":1}"#,
        #"{"app":"a","current":{"latitude":0,"longitude":0,"radius":1,"region":"0x1","simulated":false,"timestamp":0},"format":"corelocation.approximate","reports":[],"version":1}"#,
        #"{"app":"b","format":"corelocation.approximate","reports":[],"version":1}"#,
        "[]", "",
    ])
    func aFileThatIsNotExactlyOursIsRefused(_ plaintext: String) {
        #expect(throws: ApproximationFileError.self) { try ApproximationFileFormat.decode(Data(plaintext.utf8), appID: "a") }
    }

    @Test func theFormatRoundTripsToTheSameBytes() throws {
        let bytes = try ApproximationFileFormat.encode(Self.value, appID: Self.app)
        let again = try ApproximationFileFormat.decode(bytes, appID: Self.app)
        #expect(again == Self.value)
        #expect(try ApproximationFileFormat.encode(again, appID: Self.app) == bytes)
    }
}
