import Foundation
import GRDB
import LocationCore
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SQLiteAuthorizationStoreTests {
    @Test func missingFileIsAnEmptyDatabaseAndReadingCreatesNothing() throws {
        try withTemporaryDirectory { root throws in
            let directory = root.appendingPathComponent("state/corelocation")
            let store = SQLiteAuthorizationStore(directory: directory)
            #expect(store.fileURL.lastPathComponent == "authorization.sqlite")
            #expect(try store.read() == AuthorizationDatabase(servicesEnabled: true, apps: [:]))
            #expect(store.changeToken().description == "missing")
            #expect(!FileManager.default.fileExists(atPath: directory.path))
        }
    }

    @Test func roundTrip() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root.appendingPathComponent("s"))
            let weather = AppRecord(
                status: .authorizedAlways, accuracy: .reducedAccuracy, alwaysRequestUsed: true,
                allowOnce: ProcessStamp(pid: 77, startTime: UInt64.max - 5),
                temporaryFullAccuracy: TemporaryFullAccuracy(
                    purposeKey: "Navigation", process: ProcessStamp(pid: 78, startTime: UInt64.max - 4)),
                displayName: "Weather ☁️ 'quoted' \"name\"",
                executablePath: "/opt/weather/bin/weather", updated: Date(timeIntervalSince1970: 1_700_000_000.5))
            let written = try store.update { database in
                database.servicesEnabled = false
                database.apps["com.example.weather"] = weather
                database.apps["/usr/bin/tracker"] = record("tracker", status: .denied)
            }
            #expect(written.apps.count == 2)
            #expect(written.apps["com.example.weather"] == weather)
            #expect(try store.read() == written)
            // Another store object (another process, say) reads the same.
            #expect(try SQLiteAuthorizationStore(directory: root.appendingPathComponent("s")).read() == written)
        }
    }

    @Test func datesAreKeptToTheMicrosecond() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            let date = Date(timeIntervalSince1970: 1_700_000_000.123_456)
            let written = try store.update {
                $0.apps["a"] = AppRecord(status: .denied, displayName: "a", executablePath: "/a", updated: date)
            }
            let stored = try #require(try store.read().apps["a"]).updated
            #expect(abs(stored.timeIntervalSince(date)) < 0.000_001)
            #expect(written.apps["a"]?.updated == stored, "update returns the database as it reads back")
        }
    }

    @Test func usersShareTheFileButNotTheirApps() throws {
        try withTemporaryDirectory { root in
            let file = root.appendingPathComponent("system.sqlite")
            let alice = SQLiteAuthorizationStore(fileURL: file, user: 1000)
            let bob = SQLiteAuthorizationStore(fileURL: file, user: 1001)
            #expect(alice.user == 1000 && alice.fileURL == file)
            try alice.update { $0.apps["com.example.maps"] = record("maps") }
            try bob.update { $0.apps["com.example.run"] = record("run", status: .denied) }
            #expect(try alice.read().apps.keys.sorted() == ["com.example.maps"])
            #expect(try bob.read().apps.keys.sorted() == ["com.example.run"])

            // The Location Services switch is the device's: one user's change is everyone's.
            try bob.update { $0.servicesEnabled = false }
            #expect(try alice.read().servicesEnabled == false)

            // Resetting one user's apps leaves the other's alone.
            try alice.update { $0.apps.removeAll() }
            #expect(try alice.read().apps.isEmpty)
            #expect(try bob.read().apps["com.example.run"] == record("run", status: .denied))
        }
    }

    @Test func defaultUserIsTheCallingProcess() throws {
        try withTemporaryDirectory { root in
            #expect(SQLiteAuthorizationStore(directory: root).user == getuid())
        }
    }

    @Test func fileIsSQLiteWithDecisionsOnly() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            try store.update { $0.apps["com.example.weather"] = record("weather") }
            let bytes = try Data(contentsOf: store.fileURL)
            #expect(bytes.starts(with: Data("SQLite format 3\0".utf8)))
            let (schema, journal) = try DatabaseQueue(path: store.fileURL.path).read { db in
                (try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name"),
                 try String.fetchOne(db, sql: "PRAGMA journal_mode"))
            }
            #expect(journal == "delete", "a rollback journal: no -wal or -shm file beside the store")
            #expect(schema.map { $0["name"] as String } == ["apps", "grdb_migrations", "settings"])
            for table in schema {
                let sql = (table["sql"] as String).lowercased()
                #expect(!sql.contains("latitude") && !sql.contains("longitude"))
            }
        }
    }

    @Test func permissionsArePrivate() throws {
        try withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("deep/er/corelocation")
            let store = SQLiteAuthorizationStore(directory: directory)
            for index in 0..<5 {
                try store.update { $0.apps["app\(index)"] = record("app\(index)") }
            }
            #expect(permissions(of: directory.path) == 0o700)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(names == ["authorization.sqlite"], "no journal, WAL or temporary file is left behind")
            for name in names {
                #expect(permissions(of: directory.appendingPathComponent(name).path) == 0o600, "\(name)")
            }
        }
    }

    @Test func fileReadableByOthersIsMadePrivateOnWrite() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            try store.update { $0.apps["x"] = record("x") }
            #expect(chmod(store.fileURL.path, 0o644) == 0)
            try store.update { $0.apps["y"] = record("y") }
            #expect(permissions(of: store.fileURL.path) == 0o600)
            #expect(try store.read().apps.count == 2)
        }
    }

    @Test func zeroLengthFileIsAnEmptyStore() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            #expect(FileManager.default.createFile(atPath: store.fileURL.path, contents: Data()))
            #expect(try store.read() == AuthorizationDatabase())
            try store.update { $0.apps["x"] = record("x") }
            #expect(try store.read().apps["x"] == record("x"))
        }
    }

    @Test func unchangedOrFailedUpdatesWriteNothing() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            try store.update { $0.apps["x"] = record("x") }
            let token = store.changeToken()
            let generation = try storedGeneration(store)
            let before = try Data(contentsOf: store.fileURL)

            try store.update { $0.apps["x"] = record("x") }
            #expect(store.changeToken() == token)

            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try store.update { database in
                    database.apps.removeAll()
                    database.servicesEnabled = false
                    throw Refused()
                }
            }
            #expect(store.changeToken() == token)
            #expect(try storedGeneration(store) == generation)
            #expect(try Data(contentsOf: store.fileURL) == before)
            #expect(try store.read().apps["x"] == record("x"))
        }
    }

    @Test func recordsThatCouldNotBeReadBackAreNotWritten() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            try store.update { $0.apps["good"] = record("good") }
            let before = try store.read()
            var zeroPid = record("bad")
            zeroPid.allowOnce = ProcessStamp(pid: 0, startTime: 1)
            var processless = record("bad")
            processless.temporaryFullAccuracy = TemporaryFullAccuracy(purposeKey: "Forever", process: ProcessStamp(pid: -3, startTime: 1))
            var undated = record("bad")
            undated.updated = Date(timeIntervalSince1970: .nan)
            for bad in [zeroPid, processless, undated] {
                let error = #expect(throws: AuthorizationStoreError.self) {
                    try store.update { $0.apps["bad"] = bad; $0.servicesEnabled = false }
                }
                #expect(error?.code == .writeFailed)
                #expect(try store.read() == before, "nothing of the failed update was written")
            }
        }
    }

    @Test func changeTokenChangesOnEveryWrite() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            let watcher = SQLiteAuthorizationStore(directory: root)
            var tokens = [store.changeToken()]
            var watched = [watcher.changeToken()]
            // Same-size writes in quick succession (file times may not move): the token still changes.
            for flag in [false, true, false, true, false, true] {
                try store.update { $0.servicesEnabled = flag }
                tokens.append(store.changeToken())
                watched.append(watcher.changeToken())
            }
            #expect(Set(tokens).count == tokens.count)
            #expect(Set(watched).count == watched.count, "another store object sees every write")
            #expect(store.changeToken() == tokens.last)
            #expect(try storedGeneration(store) == 6)
        }
    }

    @Test func replacedOrDeletedFileIsReopened() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            try store.update { $0.apps["old"] = record("old") }
            #expect(try store.read().apps.keys.sorted() == ["old"])

            // Another store elsewhere, moved over this one.
            let other = root.appendingPathComponent("other")
            let otherStore = SQLiteAuthorizationStore(directory: other)
            try otherStore.update { $0.apps["new"] = record("new") }
            let before = store.changeToken()
            #expect(rename(otherStore.fileURL.path, store.fileURL.path) == 0)
            #expect(store.changeToken() != before)
            #expect(try store.read().apps.keys.sorted() == ["new"])
            try store.update { $0.apps["newer"] = record("newer") }
            #expect(try SQLiteAuthorizationStore(directory: root).read().apps.keys.sorted() == ["new", "newer"])

            // Deleted: empty again, then created anew by the next write.
            try FileManager.default.removeItem(at: store.fileURL)
            #expect(try store.read() == AuthorizationDatabase())
            try store.update { $0.apps["again"] = record("again") }
            #expect(try SQLiteAuthorizationStore(directory: root).read().apps.keys.sorted() == ["again"])
        }
    }

    // MARK: - Failing closed

    /// Bytes that are not a store, by what they should be reported as.
    static let corruptFiles: [(name: String, bytes: Data, code: AuthorizationStoreError.Code)] = [
        ("garbage", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }), .corrupt),
        ("text", Data("{\"apps\": {\"x\": {\"status\": 4}}}\n".utf8), .corrupt),
        ("a header and nothing else", Data("SQLite format 3\0".utf8), .corrupt),
    ]

    @Test(arguments: corruptFiles)
    func corruptFileIsAnErrorAndIsLeftIntact(sample: (name: String, bytes: Data, code: AuthorizationStoreError.Code)) throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            try sample.bytes.write(to: store.fileURL)
            try expectRefused(store, code: sample.code, contents: sample.bytes)
        }
    }

    @Test(arguments: [60, 100, 4096 + 10, 8192])
    func truncatedStoreIsAnError(length: Int) throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            try store.update { database in
                for index in 0..<200 { database.apps["com.example.app\(index)"] = record("app \(index) with a long name") }
            }
            let whole = try Data(contentsOf: store.fileURL)
            #expect(whole.count > length)
            let truncated = whole.prefix(length)
            // Truncate in place, as a full disk or a crash might: the store must notice on its next access.
            let handle = try FileHandle(forWritingTo: store.fileURL)
            try handle.truncate(atOffset: UInt64(length))
            try handle.close()
            try expectRefused(store, code: .corrupt, contents: truncated)
            try expectRefused(SQLiteAuthorizationStore(directory: root), code: .corrupt, contents: truncated)
        }
    }

    @Test func foreignSQLiteDatabaseIsAnError() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            try DatabaseQueue(path: store.fileURL.path).write { db in
                try db.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
            }
            let error = try expectRefused(store, code: .corrupt, contents: Data(contentsOf: store.fileURL))
            #expect(error?.reason.contains("not an authorization store") == true)
        }
    }

    @Test func schemaFromTheFutureIsRefused() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            try store.update { $0.apps["x"] = record("x") }
            try DatabaseQueue(path: store.fileURL.path).write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9: from the future')")
            }
            let error = try expectRefused(store, code: .unsupportedVersion, contents: Data(contentsOf: store.fileURL))
            #expect(error?.description.contains("v9: from the future") == true)
        }
    }

    /// Stored values a valid store never holds, written into tables without its checks, and what the
    /// error must mention.
    static let badRows: [(apps: String, settings: String, mentions: String)] = [
        ("(1, 'x', 99, 0, 0, NULL, NULL, NULL, NULL, NULL, 'x', '/x', 0)", validSettings, "status 99"),
        ("(1, 'x', 'authorized', 0, 0, NULL, NULL, NULL, NULL, NULL, 'x', '/x', 0)", validSettings, "status is text"),
        ("(1, 'x', 4, 7, 0, NULL, NULL, NULL, NULL, NULL, 'x', '/x', 0)", validSettings, "accuracy 7"),
        ("(1, 'x', 4, 0, 0, 42, NULL, NULL, NULL, NULL, 'x', '/x', 0)", validSettings, "allow_once_pid and allow_once_start_time"),
        ("(1, 'x', 4, 0, 0, -1, 5, NULL, NULL, NULL, 'x', '/x', 0)", validSettings, "allow_once_pid -1"),
        ("(1, 'x', 4, 1, 0, NULL, NULL, NULL, 42, 5, 'x', '/x', 0)", validSettings, "temporary full accuracy"),
        ("(1, 'x', 4, 1, 0, NULL, NULL, 'Navigation', 42, NULL, 'x', '/x', 0)", validSettings,
         "temporary_full_accuracy_pid and temporary_full_accuracy_start_time"),
        ("(1, 'x', 4, 1, 0, NULL, NULL, 'Navigation', 0, 5, 'x', '/x', 0)", validSettings, "temporary_full_accuracy_pid 0"),
        ("(1, 'x', 4, 0, 0, NULL, NULL, NULL, NULL, NULL, 'x', '/x', 'yesterday')", validSettings, "updated is text"),
        ("(1, 'x', 4, 0, 0, NULL, NULL, NULL, NULL, NULL, x'00ff', '/x', 0)", validSettings, "display_name is a blob"),
        ("(1, 'x', 4, 0, 2, NULL, NULL, NULL, NULL, NULL, 'x', '/x', 0)", validSettings, "always_request_used is 2"),
        ("(1, 'x', 4, 0, 0, NULL, NULL, NULL, NULL, NULL, 'x', '/x', 0)", "('generation', 0)", "location_services_enabled is missing"),
        ("(1, 'x', 4, 0, 0, NULL, NULL, NULL, NULL, NULL, 'x', '/x', 0)", "('location_services_enabled', 7), ('generation', 0)",
         "location_services_enabled is 7"),
    ]
    static let validSettings = "('location_services_enabled', 1), ('generation', 0)"

    @Test(arguments: badRows)
    func badStoredValueIsAnError(sample: (apps: String, settings: String, mentions: String)) throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(fileURL: root.appendingPathComponent("a.sqlite"), user: 1)
            try craftStore(at: store.fileURL, apps: sample.apps, settings: sample.settings)
            let error = try expectRefused(store, code: .corrupt, contents: Data(contentsOf: store.fileURL))
            #expect(error?.reason.contains(sample.mentions) == true, "\(String(describing: error))")
        }
    }

    /// A store written before temporary full accuracy was bound to a process (migration v1 only) is
    /// upgraded in place: every decision kept, a dated grant dropped, and the new grant writable.
    @Test func aVersionOneStoreIsMigratedKeepingItsDecisions() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(fileURL: root.appendingPathComponent("a.sqlite"), user: 1)
            try DatabaseQueue(path: store.fileURL.path).write { db in
                try db.execute(sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1: apps and settings');
                    CREATE TABLE apps (
                        uid INTEGER NOT NULL, app_id TEXT NOT NULL,
                        status INTEGER NOT NULL CHECK (status BETWEEN 0 AND 4),
                        accuracy INTEGER NOT NULL CHECK (accuracy IN (0, 1)),
                        always_request_used INTEGER NOT NULL CHECK (always_request_used IN (0, 1)),
                        allow_once_pid INTEGER CHECK (allow_once_pid > 0), allow_once_start_time INTEGER,
                        temporary_full_accuracy_purpose_key TEXT,
                        temporary_full_accuracy_expires REAL CHECK (abs(temporary_full_accuracy_expires) < 1e12),
                        display_name TEXT NOT NULL, executable_path TEXT NOT NULL,
                        updated REAL NOT NULL CHECK (abs(updated) < 1e12),
                        PRIMARY KEY (uid, app_id),
                        CHECK ((allow_once_pid IS NULL) = (allow_once_start_time IS NULL)),
                        CHECK ((temporary_full_accuracy_purpose_key IS NULL) = (temporary_full_accuracy_expires IS NULL))
                    ) STRICT, WITHOUT ROWID;
                    CREATE TABLE settings (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) STRICT, WITHOUT ROWID;
                    INSERT INTO settings VALUES ('location_services_enabled', 0), ('generation', 41);
                    INSERT INTO apps VALUES
                        (1, 'x', 4, 1, 1, 42, 5, 'Navigation', 1700003600.5, 'X', '/x', 1700000000),
                        (1, 'y', 2, 0, 0, NULL, NULL, NULL, NULL, 'Y', '/y', 1700000001),
                        (2, 'z', 3, 0, 0, NULL, NULL, NULL, NULL, 'Z', '/z', 0);
                    """)
            }
            let database = try store.read()
            #expect(!database.servicesEnabled)
            #expect(database.apps == [
                "x": AppRecord(status: .authorizedWhenInUse, accuracy: .reducedAccuracy, alwaysRequestUsed: true,
                               allowOnce: ProcessStamp(pid: 42, startTime: 5), displayName: "X", executablePath: "/x",
                               updated: Date(timeIntervalSince1970: 1_700_000_000)),
                "y": AppRecord(status: .denied, displayName: "Y", executablePath: "/y", updated: Date(timeIntervalSince1970: 1_700_000_001)),
            ], "decisions kept; the dated grant dropped")
            let granted = TemporaryFullAccuracy(purposeKey: "Navigation", process: ProcessStamp(pid: 43, startTime: 6))
            try store.update { $0.apps["x"]?.temporaryFullAccuracy = granted }
            #expect(try store.read().apps["x"]?.temporaryFullAccuracy == granted)
            #expect(try SQLiteAuthorizationStore(fileURL: store.fileURL, user: 2).read().apps.keys.sorted() == ["z"], "other users too")
            let migrations = try DatabaseQueue(path: store.fileURL.path).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
            #expect(migrations.sorted() == ["v1: apps and settings", "v2: temporary full accuracy bound to its process"])
        }
    }

    @Test func craftedValidRowsAreRead() throws {
        // The control for badStoredValueIsAnError: the same crafting, with good values, reads fine.
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(fileURL: root.appendingPathComponent("a.sqlite"), user: 1)
            try craftStore(
                at: store.fileURL,
                apps: "(1, 'x', 4, 1, 1, 42, 5, 'Navigation', 43, 6, 'X', '/x', 1700000000), "
                    + "(2, 'y', 3, 0, 0, NULL, NULL, NULL, NULL, NULL, 'Y', '/y', 0)",
                settings: Self.validSettings)
            let database = try store.read()
            #expect(database.apps == ["x": AppRecord(
                status: .authorizedWhenInUse, accuracy: .reducedAccuracy, alwaysRequestUsed: true,
                allowOnce: ProcessStamp(pid: 42, startTime: 5),
                temporaryFullAccuracy: TemporaryFullAccuracy(purposeKey: "Navigation", process: ProcessStamp(pid: 43, startTime: 6)),
                displayName: "X", executablePath: "/x", updated: Date(timeIntervalSince1970: 1_700_000_000))])
        }
    }

    @Test func directoryInPlaceOfTheFileIsUnreadable() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            try FileManager.default.createDirectory(at: store.fileURL, withIntermediateDirectories: false)
            let error = #expect(throws: AuthorizationStoreError.self) { try store.read() }
            #expect(error?.code == .unreadable)
            #expect(throws: AuthorizationStoreError.self) { try store.update { $0.servicesEnabled = false } }
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root reads a file whatever its mode"))
    func fileWithoutPermissionsIsUnreadable() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            try store.update { $0.apps["x"] = record("x") }
            #expect(chmod(store.fileURL.path, 0) == 0)
            defer { _ = chmod(store.fileURL.path, 0o600) }
            let fresh = SQLiteAuthorizationStore(directory: root)
            let error = #expect(throws: AuthorizationStoreError.self) { try fresh.read() }
            #expect(error?.code == .unreadable)
            #expect(throws: AuthorizationStoreError.self) { try fresh.update { $0.servicesEnabled = false } }
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
        #expect(SQLiteAuthorizationStore.defaultDirectory(environment: environment).path == expected)
    }

    @Test func readAndChangeTokenAreFast() throws {
        try withTemporaryDirectory { root in
            let store = SQLiteAuthorizationStore(directory: root)
            try store.update { database in
                for index in 0..<20 { database.apps["com.example.app\(index)"] = record("app\(index)") }
            }
            let reads = try medianDuration { _ = try store.read() }
            let tokens = try medianDuration { _ = store.changeToken() }
            // Release builds: about 0.1 ms per read and 0.025 ms per token; debug builds about three times
            // that. The bound leaves room for a loaded machine and still catches a read that reopens the
            // file, migrates or syncs each time.
            #expect(reads < .milliseconds(3), "read() median \(reads)")
            #expect(tokens < .milliseconds(3), "changeToken() median \(tokens)")
        }
    }

    // MARK: - Concurrent writers

    @Test func concurrentThreadsLoseNoWrites() throws {
        try withTemporaryDirectory { root in
            let writers = 4, updatesEach = 50
            let failures = Locked([String]())
            DispatchQueue.concurrentPerform(iterations: writers) { writer in
                // Each thread has its own store object (its own connection), as separate processes would.
                let store = SQLiteAuthorizationStore(directory: root)
                for index in 0..<updatesEach {
                    do {
                        try store.update { database in
                            database.apps["thread\(writer)-\(index)"] = record("t")
                            Self.increment(&database)
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let database = try SQLiteAuthorizationStore(directory: root).read()
            #expect(database.apps.count == writers * updatesEach + 1)
            #expect(Self.count(database) == writers * updatesEach)
        }
    }

    @Test func storesCreatedConcurrentlyAgree() throws {
        // Creating the file, its schema and the first rows from several connections at once: nobody may
        // see a half-made store as corrupt, and every write lands.
        for _ in 0..<25 {
            try withTemporaryDirectory { root throws in
                let writers = 4
                let failures = Locked([String]())
                DispatchQueue.concurrentPerform(iterations: writers) { writer in
                    let store = SQLiteAuthorizationStore(directory: root)
                    do {
                        _ = try store.read()
                        try store.update { $0.apps["writer\(writer)"] = record("w") }
                        _ = store.changeToken()
                        _ = try store.read()
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
                #expect(failures.withLock { $0 } == [])
                #expect(try SQLiteAuthorizationStore(directory: root).read().apps.count == writers)
            }
        }
    }

    static let childDirectoryVariable = "LOCATIONPOLICY_TEST_STORE_CHILD_DIR"
    static let childNameVariable = "LOCATIONPOLICY_TEST_STORE_CHILD_NAME"

    /// Fifty updates by one writer, each found again. `concurrentProcessesLoseNoWrites` runs this test
    /// in two child processes (this binary, filtered to it) that write to its store at the same time;
    /// run on its own, the writer has a store to itself and must also find exactly its fifty increments.
    @Test func aWriterFindsEveryOneOfItsUpdates() async throws {
        let environment = ProcessInfo.processInfo.environment
        if let shared = environment[Self.childDirectoryVariable] {
            let root = URL(fileURLWithPath: shared)
            let name = try #require(environment[Self.childNameVariable])
            #expect(FileManager.default.createFile(atPath: root.appendingPathComponent("ready-\(name)").path, contents: nil))
            let go = root.appendingPathComponent("go")
            try #require(await eventually(timeout: .seconds(30)) { FileManager.default.fileExists(atPath: go.path) })
            try Self.writeFifty(as: name, to: SQLiteAuthorizationStore(directory: root))
        } else {
            try withTemporaryDirectory { root in
                let store = SQLiteAuthorizationStore(directory: root)
                try Self.writeFifty(as: "alone", to: store)
                #expect(Self.count(try store.read()) == 50)
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func concurrentProcessesLoseNoWrites() async throws {
        try await withTemporaryDirectory { root in
            let runner = URL(fileURLWithPath: CommandLine.arguments[0])
            let names = ["process0", "process1"]
            let children = try names.map { name in
                let child = Process()
                child.executableURL = runner
                child.arguments = ["--testing-library", "swift-testing", "--filter", "aWriterFindsEveryOneOfItsUpdates"]
                var environment = ProcessInfo.processInfo.environment
                environment[Self.childDirectoryVariable] = root.path
                environment[Self.childNameVariable] = name
                child.environment = environment
                child.standardOutput = FileHandle.nullDevice
                child.standardError = FileHandle.nullDevice
                try child.run()
                return child
            }
            // Once both children wait for the go, everyone writes at once (this thread too): starting
            // together makes the race likelier; the counts below hold whatever the timing.
            let ready = names.map { root.appendingPathComponent("ready-\($0)").path }
            #expect(await eventually(timeout: .seconds(30)) { ready.allSatisfy(FileManager.default.fileExists(atPath:)) })
            #expect(FileManager.default.createFile(atPath: root.appendingPathComponent("go").path, contents: nil))
            let store = SQLiteAuthorizationStore(directory: root)
            try Self.writeFifty(as: "parent", to: store)
            for child in children {
                child.waitUntilExit()
                #expect(child.terminationStatus == 0)
            }
            let database = try store.read()
            for name in ["parent"] + names {
                #expect((0..<50).allSatisfy { database.apps["\(name)-\($0)"] != nil }, "writes of \(name) lost")
            }
            #expect(Self.count(database) == 150)
        }
    }

    /// Fifty updates, each adding a record named after the writer and incrementing the shared counter;
    /// every update's result must hold its record.
    static func writeFifty(as name: String, to store: SQLiteAuthorizationStore) throws {
        for index in 0..<50 {
            let stored = try store.update { database in
                database.apps["\(name)-\(index)"] = record(name)
                Self.increment(&database)
            }
            #expect(stored.apps["\(name)-\(index)"] != nil, "update \(index) of \(name) not stored")
        }
        let database = try store.read()
        #expect((0..<50).allSatisfy { database.apps["\(name)-\($0)"] != nil }, "\(name) lost its own writes")
    }

    // MARK: - Helpers

    /// A shared counter (kept in a record's display name): a lost update shows as a short count.
    static func increment(_ database: inout AuthorizationDatabase) {
        var counter = database.apps["counter"] ?? record("0")
        counter.displayName = String((Int(counter.displayName) ?? 0) + 1)
        database.apps["counter"] = counter
    }

    static func count(_ database: AuthorizationDatabase) -> Int {
        Int(database.apps["counter"]?.displayName ?? "") ?? 0
    }

    /// Checks that `store` refuses to read or write, runs no update body, and leaves the file's bytes alone.
    @discardableResult
    private func expectRefused(
        _ store: SQLiteAuthorizationStore, code: AuthorizationStoreError.Code, contents: Data,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> AuthorizationStoreError? {
        let mode = permissions(of: store.fileURL.path)
        let readError = #expect(throws: AuthorizationStoreError.self, sourceLocation: sourceLocation) { try store.read() }
        #expect(readError?.code == code, "\(String(describing: readError))", sourceLocation: sourceLocation)
        #expect(readError?.path == store.fileURL.path, sourceLocation: sourceLocation)
        #expect(readError?.description.contains(store.fileURL.path) == true, sourceLocation: sourceLocation)

        var bodyRan = false
        let updateError = #expect(throws: AuthorizationStoreError.self, sourceLocation: sourceLocation) {
            try store.update { database in
                bodyRan = true
                database.apps["intruder"] = record("intruder", status: .authorizedAlways)
            }
        }
        #expect(updateError?.code == code, "\(String(describing: updateError))", sourceLocation: sourceLocation)
        #expect(!bodyRan, sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: store.fileURL) == contents, "the file is left as it was", sourceLocation: sourceLocation)
        #expect(permissions(of: store.fileURL.path) == mode, "its mode too", sourceLocation: sourceLocation)
        return readError
    }

    /// A file with the store's migration recorded but tables without its checks, holding `apps` and
    /// `settings` rows as SQL value lists.
    private func craftStore(at url: URL, apps: String, settings: String) throws {
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1: apps and settings'), ('v2: temporary full accuracy bound to its process');
                CREATE TABLE apps (
                    uid, app_id, status, accuracy, always_request_used, allow_once_pid, allow_once_start_time,
                    temporary_full_accuracy_purpose_key, temporary_full_accuracy_pid, temporary_full_accuracy_start_time,
                    display_name, executable_path, updated);
                CREATE TABLE settings (key, value);
                INSERT INTO apps VALUES \(apps);
                INSERT INTO settings VALUES \(settings);
                """)
        }
    }

    private func storedGeneration(_ store: SQLiteAuthorizationStore) throws -> Int64? {
        try DatabaseQueue(path: store.fileURL.path).read { db in
            try Int64.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'generation'")
        }
    }

    /// The median wall time of `body` over 201 runs, after a warm-up run.
    private func medianDuration(_ body: () throws -> Void) throws -> Duration {
        try body()
        let clock = ContinuousClock()
        var durations: [Duration] = []
        for _ in 0..<201 {
            durations.append(try clock.measure(body))
        }
        return durations.sorted()[durations.count / 2]
    }
}
