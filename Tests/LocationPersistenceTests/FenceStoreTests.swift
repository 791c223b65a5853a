import Foundation
import LocationPersistence
import LocationProtocol
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct FenceStoreTests {
    static let maps = "org.example.maps"
    static let tool = "/usr/local/bin/where-am-i"

    private func store(_ root: URL, keyName: String = "key") throws -> FenceStore {
        FenceStore(directory: root.appendingPathComponent("fences"), key: try SealingKey.loadOrCreate(at: root.appendingPathComponent(keyName)))
    }

    /// Seals `plaintext` where `store` keeps `appID`'s fences, as a writer with the key could.
    private func plant(_ plaintext: String, for appID: String, in store: FenceStore, root: URL) throws {
        let key = try SealingKey.loadOrCreate(at: root.appendingPathComponent("key"))
        try SealedFile(url: store.fileURL(for: appID), key: key).write(Data(plaintext.utf8))
    }

    private func names(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func roundTripAcrossStoresAndApps() throws {
        try withTemporaryDirectory { root in
            let store = try store(root)
            #expect(try store.load(appID: Self.maps) == StoredFences())
            try store.save(FenceFixtures.everything, appID: Self.maps)
            try store.save(FenceFixtures.small, appID: Self.tool)
            #expect(try store.load(appID: Self.maps) == FenceFixtures.everything)

            // A later process (a new store on the same directory and key) finds both.
            let later = try self.store(root)
            #expect(try later.load(appID: Self.tool) == FenceFixtures.small)
            let all = later.loadAll()
            #expect(all.failures.isEmpty)
            #expect(all.fences == [Self.maps: FenceFixtures.everything, Self.tool: FenceFixtures.small])

            // Saving replaces.
            var changed = FenceFixtures.small
            changed[.regions].pendingEvents.append(FenceEvent(identifier: "work", state: .outside, date: FenceFixtures.date))
            try store.save(changed, appID: Self.tool)
            #expect(try later.load(appID: Self.tool) == changed)
        }
    }

    @Test func savingNothingRemovesTheFile() throws {
        try withTemporaryDirectory { root in
            let store = try store(root)
            try store.save(FenceFixtures.small, appID: Self.maps)
            #expect(FileManager.default.fileExists(atPath: store.fileURL(for: Self.maps).path))
            var emptied = FenceFixtures.small
            emptied[.regions].records.removeAll()
            #expect(emptied.isEmpty && emptied.groups.isEmpty)
            try store.save(emptied, appID: Self.maps)
            #expect(try names(in: store.directory).isEmpty)
            #expect(try store.load(appID: Self.maps) == StoredFences())
            // Also with empty groups left in the value, and when there was no file.
            try store.save(StoredFences(groups: [.regions: .init(), .monitor("m"): .init()]), appID: Self.maps)
            #expect(try names(in: store.directory).isEmpty)
        }
    }

    @Test func fileNamesAreHashesOfAnyAppID() throws {
        try withTemporaryDirectory { root in
            let store = try store(root)
            let ids = [Self.maps, Self.tool, "../../etc/passwd", "a\0b", "名前", String(repeating: "/very/long/path", count: 250)]
            for (index, id) in ids.enumerated() {
                var fences = FenceFixtures.small
                fences[.monitor("n\(index)")] = FenceFixtures.small[.regions]
                try store.save(fences, appID: id)
            }
            let files = try names(in: store.directory)
            #expect(files.count == ids.count)
            #expect(files.allSatisfy { $0.count == 64 + ".fences".count && $0.hasSuffix(".fences") })
            #expect(Set(files) == Set(ids.map(FenceStore.fileName(for:))))
            #expect(FenceStore.fileName(for: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.fences")
            let all = store.loadAll()
            #expect(all.failures.isEmpty && Set(all.fences.keys) == Set(ids))
            for (index, id) in ids.enumerated() { #expect(all.fences[id]?.groups[.monitor("n\(index)")] != nil) }
        }
    }

    @Test func filesArePrivateAndHoldNoPlaintext() throws {
        try withTemporaryDirectory { root in
            let state = root.appendingPathComponent("state")
            let store = try FenceStore(stateDirectory: state, user: 1000)
            #expect(store.directory.path == state.path + "/fences/1000")
            try store.save(FenceFixtures.everything, appID: Self.maps)
            #expect(try names(in: state) == ["fences", "key"])
            #expect(permissions(of: state.path) == 0o700)
            #expect(permissions(of: state.appendingPathComponent("fences").path) == 0o700)
            #expect(permissions(of: store.directory.path) == 0o700)
            let url = store.fileURL(for: Self.maps)
            #expect(permissions(of: url.path) == 0o600)
            #expect(try names(in: store.directory) == [url.lastPathComponent], "no temporary file left")

            // The key is the state directory's one, LastLocationStore's.
            let key = try SealingKey.loadOrCreate(at: state.appendingPathComponent(LastLocationStore.keyFileName))
            let plaintext = try #require(try SealedFile(url: url, key: key).read())
            let bytes = try Data(contentsOf: url)
            for text in ["52.520008", "13.404954", "org.example.maps", "home", "Beacons", "E2C56DB5", "corelocation.fences", "latitude"] {
                #expect(plaintext.contains(text), "the plaintext spells \(text)")
                #expect(!bytes.contains(text), "\(text) appears in the sealed file")
            }
        }
    }

    // MARK: - Files that cannot be loaded

    @Test func changedOrTruncatedFilesAreTamperedAndOthersStillLoad() throws {
        for damage in ["flip", "truncate", "empty"] {
            try withTemporaryDirectory { root in
                let store = try store(root)
                try store.save(FenceFixtures.everything, appID: Self.maps)
                try store.save(FenceFixtures.small, appID: Self.tool)
                let url = store.fileURL(for: Self.maps)
                var bytes = try Data(contentsOf: url)
                switch damage {
                case "flip": bytes[bytes.count / 2] ^= 0x40
                case "truncate": bytes = bytes.prefix(bytes.count - 1)
                default: bytes = Data()
                }
                try bytes.write(to: url)

                let error = #expect(throws: FenceStoreError(path: url.path, reason: .storage(.tampered(path: url.path)))) {
                    try store.load(appID: Self.maps)
                }
                #expect(error?.description.hasPrefix("fence file \(url.path): ") == true)
                #expect(try store.load(appID: Self.tool) == FenceFixtures.small)

                let all = store.loadAll()
                #expect(all.fences == [Self.tool: FenceFixtures.small], "\(damage)")
                #expect(all.failures == [FenceStoreFailure(error: try #require(error), movedTo: url.path + ".corrupt")])
                // Set aside, byte for byte: the app starts afresh, the evidence stays.
                #expect(try Data(contentsOf: URL(fileURLWithPath: url.path + ".corrupt")) == bytes)
                #expect(try store.load(appID: Self.maps) == StoredFences())
                #expect(store.loadAll().failures.isEmpty)
                try store.save(FenceFixtures.small, appID: Self.maps)
                #expect(try store.load(appID: Self.maps) == FenceFixtures.small)
            }
        }
    }

    @Test func anotherKeyOpensNothing() throws {
        try withTemporaryDirectory { root in
            try store(root).save(FenceFixtures.small, appID: Self.maps)
            try store(root).save(FenceFixtures.small, appID: Self.tool)
            let stranger = try store(root, keyName: "other-key")
            let url = stranger.fileURL(for: Self.maps)
            #expect(throws: FenceStoreError(path: url.path, reason: .storage(.tampered(path: url.path)))) {
                try stranger.load(appID: Self.maps)
            }
            let all = stranger.loadAll()
            #expect(all.fences.isEmpty && all.failures.count == 2)
            #expect(all.failures.allSatisfy { $0.movedTo?.hasSuffix(".fences.corrupt") == true })
        }
    }

    @Test func anotherAppsFileIsRefused() throws {
        try withTemporaryDirectory { root in
            let store = try store(root)
            try store.save(FenceFixtures.small, appID: Self.maps)
            try store.save(FenceFixtures.everything, appID: Self.tool)

            // Copied over another app's file: its name is authenticated, so it does not open.
            let mapsURL = store.fileURL(for: Self.maps)
            let otherURL = store.fileURL(for: "org.example.other")
            try FileManager.default.copyItem(at: mapsURL, to: otherURL)
            #expect(throws: FenceStoreError(path: otherURL.path, reason: .storage(.tampered(path: otherURL.path)))) {
                try store.load(appID: "org.example.other")
            }
            try FileManager.default.removeItem(at: otherURL)

            // Sealed under the other app's name but naming this one: foreign.
            let plaintext = try #require(try SealedFile(url: mapsURL, key: SealingKey.loadOrCreate(at: root.appendingPathComponent("key"))).read())
            try plant(String(decoding: plaintext, as: UTF8.self), for: "org.example.other", in: store, root: root)
            let error = #expect(throws: FenceStoreError(
                path: otherURL.path, reason: .format(.foreign(storedAppID: Self.maps, expectedAppID: "org.example.other")))
            ) { try store.load(appID: "org.example.other") }
            #expect(error?.description == "fence file \(otherURL.path): the file belongs to app \"org.example.maps\", not \"org.example.other\"")

            let all = store.loadAll()
            #expect(all.fences == [Self.maps: FenceFixtures.small, Self.tool: FenceFixtures.everything])
            #expect(all.failures == [FenceStoreFailure(
                error: FenceStoreError(path: otherURL.path, reason: .format(.foreign(storedAppID: Self.maps, expectedAppID: nil))),
                movedTo: otherURL.path + ".corrupt")])
        }
    }

    @Test func futureVersionsAndInvalidContentAreNamedAndSetAside() throws {
        try withTemporaryDirectory { root in
            let store = try store(root)
            try store.save(FenceFixtures.small, appID: Self.maps)
            let planted: [(String, String, FenceFileError)] = [
                ("future", #"{"format":"corelocation.fences","version":2,"app":"future","regions":[]}"#, .unsupportedVersion(2)),
                ("duplicates", Self.duplicates, .invalid("groups[0].fences[1].identifier: \"a\" is already used in this group")),
                ("not json", "🙂", .notAFenceFile("The given data was not valid JSON.")),
            ]
            for (app, text, _) in planted { try plant(text, for: app, in: store, root: root) }
            for (app, _, expected) in planted {
                let url = store.fileURL(for: app)
                let error = #expect(throws: FenceStoreError.self) { try store.load(appID: app) }
                guard case .format(let reason)? = error?.reason else {
                    Issue.record("\(app): expected a format error, got \(String(describing: error))")
                    continue
                }
                if case .notAFenceFile = expected {
                    guard case .notAFenceFile = reason else { Issue.record("\(app): \(reason)"); continue }
                } else {
                    #expect(reason == expected)
                }
                #expect(error?.path == url.path)
            }
            let all = store.loadAll()
            #expect(all.fences == [Self.maps: FenceFixtures.small])
            #expect(Set(all.failures.map(\.error.path)) == Set(planted.map { store.fileURL(for: $0.0).path }))
            #expect(all.failures.allSatisfy { $0.movedTo == $0.error.path + ".corrupt" })
            #expect(try names(in: store.directory).filter { $0.hasSuffix(".corrupt") }.count == 3)
        }
    }

    static let duplicates = #"{"app":"duplicates","format":"corelocation.fences","groups":[{"fences":["#
        + [1, 2].map { _ in
            #"{"assumedState":"unknown","condition":{"kind":"circle","latitude":1,"longitude":2,"radius":3},"identifier":"a","lastEvent":{"date":0,"state":"inside"},"notifyOnEntry":true,"notifyOnExit":true}"#
        }.joined(separator: ",") + #"],"kind":"regions","pending":[]}],"version":1}"#

    @Test func unreachableFilesAreLeftInPlace() throws {
        try withTemporaryDirectory { root in
            let store = try store(root)
            try store.save(FenceFixtures.small, appID: Self.maps)
            let url = store.fileURL(for: "a directory")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            let all = store.loadAll()
            #expect(all.fences == [Self.maps: FenceFixtures.small])
            #expect(all.failures == [FenceStoreFailure(
                error: FenceStoreError(path: url.path, reason: .storage(.notARegularFile(path: url.path))), movedTo: nil)])
            #expect(all.failures.first?.description.hasSuffix("(left in place)") == true)
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        }
    }

    @Test func setAsideMovesOneAppsFile() throws {
        try withTemporaryDirectory { root in
            let store = try store(root)
            #expect(try store.setAside(appID: Self.maps) == nil)
            try store.save(FenceFixtures.small, appID: Self.maps)
            try store.save(FenceFixtures.small, appID: Self.tool)
            let url = store.fileURL(for: Self.maps)
            #expect(try store.setAside(appID: Self.maps) == url.path + ".corrupt")
            #expect(try store.load(appID: Self.maps) == StoredFences())
            #expect(store.loadAll().fences == [Self.tool: FenceFixtures.small])
        }
    }

    @Test func aValueThatWouldNotReadBackLeavesTheFileAsItWas() throws {
        try withTemporaryDirectory { root in
            let store = try store(root)
            try store.save(FenceFixtures.small, appID: Self.maps)
            var bad = FenceFixtures.small
            bad[.regions].records.append(FenceFixtures.circle("far", 91, 0))
            let error = #expect(throws: FenceStoreError.self) { try store.save(bad, appID: Self.maps) }
            #expect(error?.description.contains("latitude: 91.0 is not in [-90, 90]") == true)
            #expect(try store.load(appID: Self.maps) == FenceFixtures.small)
        }
    }

    // MARK: - Crashes

    /// A writer killed after writing its temporary file and before renaming it leaves that file beside
    /// the old one (PrivateFiles names it `.<name>.<pid>.<random>.tmp`): readers still see the old file
    /// whole, the next save works, and loading everything removes the leftovers of writers that are gone.
    @Test func aCrashBeforeTheRenameLeavesTheOldFileWhole() throws {
        try withTemporaryDirectory { root in
            let store = try store(root)
            try store.save(FenceFixtures.small, appID: Self.maps)
            let url = store.fileURL(for: Self.maps)
            let old = try Data(contentsOf: url)

            // The new content sealed in full, then cut short as a crash mid-write would leave it.
            let scratch = try self.store(root.appendingPathComponent("scratch"))
            try scratch.save(FenceFixtures.everything, appID: Self.maps)
            let sealedNew = try Data(contentsOf: scratch.fileURL(for: Self.maps))
            // Left by a writer that is gone (a process that has exited), and by one still running (this one).
            let exited = Process()
            exited.executableURL = URL(fileURLWithPath: "/bin/true")
            try exited.run()
            exited.waitUntilExit()
            func temporary(_ pid: Int32) -> String {
                store.directory.appendingPathComponent(".\(url.lastPathComponent).\(pid).\(UInt64.random(in: 0...UInt64.max)).tmp").path
            }
            let gone = [temporary(exited.processIdentifier), temporary(exited.processIdentifier)]
            let running = temporary(getpid())
            for (path, leftover) in zip(gone + [running], [sealedNew.prefix(sealedNew.count / 2), Data(), sealedNew]) {
                #expect(FileManager.default.createFile(atPath: path, contents: leftover, attributes: [.posixPermissions: 0o600]))
            }

            #expect(try Data(contentsOf: url) == old)
            #expect(try store.load(appID: Self.maps) == FenceFixtures.small)
            let all = store.loadAll()
            #expect(all.fences == [Self.maps: FenceFixtures.small] && all.failures.isEmpty)
            #expect(gone.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "the dead writer's files are removed")
            #expect(FileManager.default.fileExists(atPath: running), "a running writer's file is its own")

            try store.save(FenceFixtures.everything, appID: Self.maps)
            #expect(try store.load(appID: Self.maps) == FenceFixtures.everything)
            #expect(store.loadAll().fences == [Self.maps: FenceFixtures.everything])
        }
    }

    @Test func aMissingDirectoryIsNoFences() throws {
        try withTemporaryDirectory { root in
            let store = try store(root)
            let all = store.loadAll()
            #expect(all.fences.isEmpty && all.failures.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: store.directory.path), "reading creates nothing")
        }
    }
}
