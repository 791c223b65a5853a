import Foundation
import LocationPolicy
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct FileAuthorizationStoreTests {
    @Test func missingFileIsAnEmptyDatabaseAndReadingCreatesNothing() throws {
        try withTemporaryDirectory { root throws in
            let directory = root.appendingPathComponent("state/corelocation")
            let store = FileAuthorizationStore(directory: directory)
            #expect(try store.read() == AuthorizationDatabase(servicesEnabled: true, apps: [:]))
            #expect(!FileManager.default.fileExists(atPath: directory.path))
        }
    }

    @Test func roundTrip() throws {
        try withTemporaryDirectory { root in
            let store = FileAuthorizationStore(directory: root.appendingPathComponent("s"))
            let weather = AppRecord(
                status: .authorizedAlways, accuracy: .reducedAccuracy, alwaysRequestUsed: true,
                allowOnce: ProcessStamp(pid: 77, startTime: 123_456), displayName: "Weather ☁️",
                executablePath: "/opt/weather/bin/weather", updated: Date(timeIntervalSince1970: 1_700_000_000.5))
            let written = try store.update { database in
                database.servicesEnabled = false
                database.apps["com.example.weather"] = weather
                database.apps["/usr/bin/tracker"] = record("tracker", status: .denied)
            }
            #expect(written.apps.count == 2)
            #expect(try store.read() == written)
            // Another store object (another process, say) reads the same.
            #expect(try FileAuthorizationStore(directory: root.appendingPathComponent("s")).read() == written)
        }
    }

    @Test func datesAreKeptToTheMillisecond() throws {
        try withTemporaryDirectory { root in
            let store = FileAuthorizationStore(directory: root)
            let date = Date(timeIntervalSince1970: 1_700_000_000.123_456)
            try store.update { $0.apps["a"] = AppRecord(status: .denied, displayName: "a", executablePath: "/a", updated: date) }
            let stored = try #require(try store.read().apps["a"]).updated
            #expect(abs(stored.timeIntervalSince(date)) < 0.001)
        }
    }

    @Test func fileIsReadableJSONWithoutLocationData() throws {
        try withTemporaryDirectory { root in
            let store = FileAuthorizationStore(directory: root)
            try store.update { $0.apps["com.example.weather"] = record("weather") }
            let text = try String(contentsOf: store.fileURL, encoding: .utf8)
            #expect(text.contains("\n  \"apps\" : {"))
            #expect(text.contains("\"servicesEnabled\" : true"))
            #expect(text.contains("\"updated\" : \"2023-11-14T22:13:20.125Z\""))
            #expect(text.contains("holds no location data"))
            #expect(!text.contains("latitude"))
        }
    }

    @Test func permissionsArePrivate() throws {
        try withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("deep/er/corelocation")
            let store = FileAuthorizationStore(directory: directory)
            try store.update { $0.apps["x"] = record("x") }
            #expect(permissions(of: directory.path) == 0o700)
            #expect(permissions(of: store.fileURL.path) == 0o600)
            #expect(permissions(of: store.lockFileURL.path) == 0o600)
            // A second write replaces the file and keeps the mode.
            try store.update { $0.apps["y"] = record("y") }
            #expect(permissions(of: store.fileURL.path) == 0o600)
        }
    }

    @Test func writesLeaveNoTemporaryFiles() throws {
        try withTemporaryDirectory { root in
            let store = FileAuthorizationStore(directory: root)
            for index in 0..<10 {
                try store.update { $0.apps["app\(index)"] = record("app\(index)") }
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
            #expect(names == ["authorization.json", "authorization.lock"])
        }
    }

    @Test func staleTemporaryFilesFromACrashedWriterAreRemoved() throws {
        try withTemporaryDirectory { root in
            let stale = root.appendingPathComponent(".authorization.json.999.12345.tmp")
            try Data("{\"half".utf8).write(to: stale)
            let store = FileAuthorizationStore(directory: root)
            try store.update { $0.servicesEnabled = false }
            #expect(!FileManager.default.fileExists(atPath: stale.path))
            #expect(try store.read().servicesEnabled == false)
        }
    }

    @Test func unchangedOrFailedUpdatesWriteNothing() throws {
        try withTemporaryDirectory { root in
            let store = FileAuthorizationStore(directory: root)
            try store.update { $0.apps["x"] = record("x") }
            let token = store.changeToken()
            let before = try Data(contentsOf: store.fileURL)

            try store.update { $0.apps["x"] = record("x") }
            #expect(store.changeToken() == token)

            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try store.update { database in
                    database.apps.removeAll()
                    throw Refused()
                }
            }
            #expect(store.changeToken() == token)
            #expect(try Data(contentsOf: store.fileURL) == before)
        }
    }

    @Test func changeTokenChangesOnEveryWrite() throws {
        try withTemporaryDirectory { root in
            let store = FileAuthorizationStore(directory: root)
            var tokens = [store.changeToken()]
            // Same-size contents in quick succession: the token must still change each time.
            for flag in [false, true, false, true, false] {
                try store.update { $0.servicesEnabled = flag }
                tokens.append(store.changeToken())
            }
            #expect(Set(tokens).count == tokens.count)
            #expect(store.changeToken() == tokens.last)
        }
    }

    @Test func modificationTimeOnlyMovesForward() throws {
        // If the clock steps back (or the old file's time is in the future), a new write must still get a
        // later modification time than the file it replaces, or a poller could miss it.
        try withTemporaryDirectory { root in
            let store = FileAuthorizationStore(directory: root)
            try store.update { $0.servicesEnabled = false }
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: store.fileURL.path)
            let future = try #require(modificationNanoseconds(of: store.fileURL.path))
            try store.update { $0.servicesEnabled = true }
            let modified = try #require(modificationNanoseconds(of: store.fileURL.path))
            #expect(modified > future)
            #expect(modified - future < 1_000_000)
        }
    }

    static let corruptContents: [(name: String, bytes: String, code: AuthorizationStoreError.Code)] = [
        ("not JSON", "{ this is not json", .corrupt),
        ("truncated", "{\"apps\" : {\"x\" : {\"status\" : 4,", .corrupt),
        ("wrong shape", "{\"version\": 1, \"servicesEnabled\": true, \"apps\": 5}", .corrupt),
        ("bad status", "{\"apps\": {\"x\": {\"status\": 99, \"accuracy\": 0, \"alwaysRequestUsed\": false, \"displayName\": \"x\", \"executablePath\": \"/x\", \"updated\": \"2023-11-14T22:13:20Z\"}}}", .corrupt),
        ("bad date", "{\"apps\": {\"x\": {\"status\": 4, \"accuracy\": 0, \"alwaysRequestUsed\": false, \"displayName\": \"x\", \"executablePath\": \"/x\", \"updated\": \"yesterday\"}}}", .corrupt),
        ("empty", "", .corrupt),
        ("from the future", "{\"version\": 99, \"servicesEnabled\": true, \"apps\": {}}", .unsupportedVersion),
    ]

    @Test(arguments: corruptContents)
    func corruptFileIsAnErrorAndIsLeftIntact(sample: (name: String, bytes: String, code: AuthorizationStoreError.Code)) throws {
        try withTemporaryDirectory { root in
            let store = FileAuthorizationStore(directory: root)
            try Data(sample.bytes.utf8).write(to: store.fileURL)

            let readError = #expect(throws: AuthorizationStoreError.self) { try store.read() }
            #expect(readError?.code == sample.code)
            #expect(readError?.path == store.fileURL.path)
            #expect(readError?.description.contains(store.fileURL.path) == true)

            var bodyRan = false
            let updateError = #expect(throws: AuthorizationStoreError.self) {
                try store.update { database in
                    bodyRan = true
                    database.apps["intruder"] = record("intruder", status: .authorizedAlways)
                }
            }
            #expect(updateError?.code == sample.code)
            #expect(!bodyRan)
            #expect(try Data(contentsOf: store.fileURL) == Data(sample.bytes.utf8))
        }
    }

    @Test func unreadableFileIsAnError() throws {
        try withTemporaryDirectory { root in
            let store = FileAuthorizationStore(directory: root)
            // Running as root defeats chmod 000; a directory in the file's place cannot be read by anyone.
            try FileManager.default.createDirectory(at: store.fileURL, withIntermediateDirectories: false)
            let error = #expect(throws: AuthorizationStoreError.self) { try store.read() }
            #expect(error?.code == .unreadable)
            #expect(throws: AuthorizationStoreError.self) { try store.update { $0.servicesEnabled = false } }
        }
    }

    @Test func handWrittenMinimalFileIsAccepted() throws {
        try withTemporaryDirectory { root in
            let store = FileAuthorizationStore(directory: root)
            try Data("{}".utf8).write(to: store.fileURL)
            #expect(try store.read() == AuthorizationDatabase())
            try Data("{\"servicesEnabled\": false}".utf8).write(to: store.fileURL)
            #expect(try store.read() == AuthorizationDatabase(servicesEnabled: false))
        }
    }

    @Test(arguments: [
        (["CORELOCATION_STATE_DIR": "/srv/cl", "XDG_STATE_HOME": "/x", "HOME": "/home/u"], "/srv/cl"),
        (["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"], "/x/state/corelocation"),
        (["XDG_STATE_HOME": "relative/ignored", "HOME": "/home/u"], "/home/u/.local/state/corelocation"),
        (["CORELOCATION_STATE_DIR": "", "HOME": "/home/u"], "/home/u/.local/state/corelocation"),
        (["HOME": "/home/u"], "/home/u/.local/state/corelocation"),
    ] as [([String: String], String)])
    func defaultDirectory(environment: [String: String], expected: String) {
        #expect(FileAuthorizationStore.defaultDirectory(environment: environment).path == expected)
    }

    // MARK: - Concurrent writers

    @Test func concurrentThreadsLoseNoWrites() throws {
        try withTemporaryDirectory { root in
            let writers = 2, updatesEach = 50
            DispatchQueue.concurrentPerform(iterations: writers) { writer in
                // Each thread has its own store object, as separate processes would.
                let store = FileAuthorizationStore(directory: root)
                for index in 0..<updatesEach {
                    _ = try? store.update { database in
                        database.apps["thread\(writer)-\(index)"] = record("t")
                        Self.increment(&database)
                    }
                }
            }
            let database = try FileAuthorizationStore(directory: root).read()
            #expect(database.apps.count == writers * updatesEach + 1)
            #expect(Self.count(database) == writers * updatesEach)
        }
    }

    static let childDirectoryVariable = "LOCATIONPOLICY_TEST_STORE_CHILD_DIR"
    static let childNameVariable = "LOCATIONPOLICY_TEST_STORE_CHILD_NAME"
    static let isChild = ProcessInfo.processInfo.environment[childDirectoryVariable] != nil

    /// Not a test of its own: the body of the child processes that `concurrentProcessesLoseNoWrites` starts.
    @Test(.enabled(if: isChild, "runs only as a child of concurrentProcessesLoseNoWrites"))
    func storeChildProcessWriter() throws {
        let environment = ProcessInfo.processInfo.environment
        let root = URL(fileURLWithPath: try #require(environment[Self.childDirectoryVariable]))
        let name = try #require(environment[Self.childNameVariable])
        let go = root.appendingPathComponent("go")
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: go.path), Date() < deadline { usleep(2_000) }
        let store = FileAuthorizationStore(directory: root)
        for index in 0..<50 {
            try store.update { database in
                database.apps["\(name)-\(index)"] = record(name)
                Self.increment(&database)
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func concurrentProcessesLoseNoWrites() throws {
        try withTemporaryDirectory { root in
            let runner = URL(fileURLWithPath: CommandLine.arguments[0])
            let children = try (0..<2).map { index in
                let child = Process()
                child.executableURL = runner
                child.arguments = ["--testing-library", "swift-testing", "--filter", "storeChildProcessWriter"]
                var environment = ProcessInfo.processInfo.environment
                environment[Self.childDirectoryVariable] = root.path
                environment[Self.childNameVariable] = "process\(index)"
                child.environment = environment
                child.standardOutput = FileHandle.nullDevice
                child.standardError = FileHandle.nullDevice
                try child.run()
                return child
            }
            // Give the children a moment to start, then let everyone write at once (this thread too).
            usleep(200_000)
            #expect(FileManager.default.createFile(atPath: root.appendingPathComponent("go").path, contents: nil))
            let store = FileAuthorizationStore(directory: root)
            for index in 0..<50 {
                try store.update { database in
                    database.apps["parent-\(index)"] = record("parent")
                    Self.increment(&database)
                }
            }
            for child in children {
                child.waitUntilExit()
                #expect(child.terminationStatus == 0)
            }
            let database = try store.read()
            for name in ["parent", "process0", "process1"] {
                #expect((0..<50).allSatisfy { database.apps["\(name)-\($0)"] != nil }, "writes of \(name) lost")
            }
            #expect(Self.count(database) == 150)
        }
    }

    /// A shared counter (kept in a record's display name): a lost update shows as a short count.
    static func increment(_ database: inout AuthorizationDatabase) {
        var counter = database.apps["counter"] ?? record("0")
        counter.displayName = String((Int(counter.displayName) ?? 0) + 1)
        database.apps["counter"] = counter
    }

    static func count(_ database: AuthorizationDatabase) -> Int {
        Int(database.apps["counter"]?.displayName ?? "") ?? 0
    }
}

@Suite struct MemoryAuthorizationStoreTests {
    @Test func readUpdateAndToken() throws {
        let store = MemoryAuthorizationStore()
        #expect(try store.read() == AuthorizationDatabase())
        let token = store.changeToken()
        try store.update { $0.apps["x"] = record("x") }
        #expect(try store.read().apps["x"] == record("x"))
        let afterWrite = store.changeToken()
        #expect(afterWrite != token)
        try store.update { $0.apps["x"] = record("x") }
        #expect(store.changeToken() == afterWrite)
    }

    @Test func simulatedFailure() throws {
        struct Broken: Error {}
        let store = MemoryAuthorizationStore(AuthorizationDatabase(servicesEnabled: false))
        store.simulateFailure(Broken())
        #expect(throws: Broken.self) { try store.read() }
        #expect(throws: Broken.self) { try store.update { $0.servicesEnabled = true } }
        store.simulateFailure(nil)
        #expect(try store.read().servicesEnabled == false)
    }
}
