import Foundation
import LocationCore
import LocationPolicy
import Testing

/// Collects what a watcher reports, with the time of each report.
final class Reports: Sendable {
    enum Report: Sendable {
        case database(AuthorizationDatabase)
        case error(String)
    }

    private let items = Locked([(Date, Report)]())

    func record(_ result: Result<AuthorizationDatabase, any Error>) {
        let report: Report = switch result {
        case .success(let database): .database(database)
        case .failure(let error): .error(String(describing: error))
        }
        items.withLock { $0.append((Date(), report)) }
    }

    var all: [(Date, Report)] { items.withLock { $0 } }
    var count: Int { items.withLock { $0.count } }
}

@Suite struct AuthorizationStoreWatcherTests {
    @Test(.timeLimit(.minutes(1)))
    func reportsAnExternalWriteWithinASecond() async throws {
        try await withTemporaryDirectory { root in
            let reports = Reports()
            let watcher = AuthorizationStoreWatcher(store: FileAuthorizationStore(directory: root)) { reports.record($0) }
            watcher.start()
            defer { watcher.stop() }

            // Another process would use its own store object: `locationctl grant`, say.
            let written = Date()
            try FileAuthorizationStore(directory: root).update { $0.apps["com.example.weather"] = record("weather") }
            #expect(await waitUntil(timeout: 1) { reports.count > 0 })
            let (when, report) = try #require(reports.all.first)
            #expect(when.timeIntervalSince(written) < 1)
            guard case .database(let database) = report else {
                Issue.record("expected a database, got \(report)")
                return
            }
            #expect(database.apps["com.example.weather"] == record("weather"))

            try FileAuthorizationStore(directory: root).update { $0.servicesEnabled = false }
            #expect(await waitUntil(timeout: 1) { reports.count == 2 })
        }
    }

    @Test func unchangedContentIsNotReported() async throws {
        try await withTemporaryDirectory { root in
            let store = FileAuthorizationStore(directory: root)
            try store.update { $0.apps["x"] = record("x") }
            let reports = Reports()
            let watcher = AuthorizationStoreWatcher(store: store, interval: 0.05) { reports.record($0) }
            watcher.start()
            defer { watcher.stop() }
            // Touching the file changes the token, not the content.
            try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: store.fileURL.path)
            try await Task.sleep(nanoseconds: 300_000_000)
            #expect(reports.count == 0)
            // A real change afterwards is reported.
            try store.update { $0.apps["y"] = record("y") }
            #expect(await waitUntil(timeout: 1) { reports.count == 1 })
        }
    }

    @Test func corruptionIsReportedOnceThenTheRepair() async throws {
        try await withTemporaryDirectory { root in
            let store = FileAuthorizationStore(directory: root)
            try store.update { $0.apps["x"] = record("x") }
            let reports = Reports()
            let watcher = AuthorizationStoreWatcher(store: store, interval: 0.05) { reports.record($0) }
            watcher.start()
            defer { watcher.stop() }

            try Data("{ broken".utf8).write(to: store.fileURL)
            #expect(await waitUntil(timeout: 1) { reports.count == 1 })
            guard case .error(let message)? = reports.all.first?.1 else {
                Issue.record("expected an error report")
                return
            }
            #expect(message.contains("corrupt"))
            // Same broken content again: no second report.
            try Data("{ broken".utf8).write(to: store.fileURL)
            try await Task.sleep(nanoseconds: 200_000_000)
            #expect(reports.count == 1)

            try FileManager.default.removeItem(at: store.fileURL)
            #expect(await waitUntil(timeout: 1) { reports.count == 2 })
            guard case .database(let database)? = reports.all.last?.1 else {
                Issue.record("expected a database report")
                return
            }
            #expect(database == AuthorizationDatabase())
        }
    }

    @Test func stopEndsReports() async throws {
        let store = MemoryAuthorizationStore()
        let reports = Reports()
        let watcher = AuthorizationStoreWatcher(store: store, interval: 0.02) { reports.record($0) }
        watcher.start()
        #expect(watcher.isRunning)
        try store.update { $0.servicesEnabled = false }
        #expect(await waitUntil(timeout: 1) { reports.count == 1 })
        watcher.stop()
        #expect(!watcher.isRunning)
        try store.update { $0.servicesEnabled = true }
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(reports.count == 1)

        // It can be started again; the baseline is then the current state.
        watcher.start()
        defer { watcher.stop() }
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(reports.count == 1)
        try store.update { $0.apps["z"] = record("z") }
        #expect(await waitUntil(timeout: 1) { reports.count == 2 })
    }

    @Test func stopFromInsideTheCallbackDoesNotDeadlock() async throws {
        let store = MemoryAuthorizationStore()
        let box = Locked<AuthorizationStoreWatcher?>(nil)
        let reports = Reports()
        let watcher = AuthorizationStoreWatcher(store: store, interval: 0.02) { result in
            reports.record(result)
            box.withLock { $0?.stop() }
        }
        box.withLock { $0 = watcher }
        watcher.start()
        try store.update { $0.servicesEnabled = false }
        #expect(await waitUntil(timeout: 1) { !watcher.isRunning })
        #expect(reports.count == 1)
        box.withLock { $0 = nil }
    }
}
