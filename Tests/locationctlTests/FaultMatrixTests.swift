import Foundation
import LocationPersistence
import LocationProtocol
import TestSupport
import Testing

/// Faults a location service meets on devices nobody watches, each against a real `locationd` and
/// real app processes: what the apps see, that nothing persisted is lost or corrupted, and how long
/// recovery takes. (Killing the daemon, a client and gpsd is tested beside the features they hurt:
/// DaemonEndToEndTests, DaemonFenceEndToEndTests, GPSDIntegrationTests.)
@Suite(.serialized) struct FaultMatrixTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func locations(_ lines: [String]) -> [String] { lines.filter { $0.hasPrefix("location ") } }

    @Test func aDeletedSocketIsBoundAgainAndConnectedAppsNeverNotice() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        try fixture.startDaemon()
        let app = try fixture.makeApp("steady", bundleID: "com.example.steady")
        #expect(try fixture.ctl(["grant", "com.example.steady"]).status == 0)
        let connected = try fixture.launch(app)
        #expect(await connected.line(within: 20) { $0.hasPrefix("location ") } != nil, "\(connected.stderr)")

        try FileManager.default.removeItem(atPath: fixture.socket)
        let deleted = Date()
        let before = Self.locations(connected.lines).count
        #expect(await eventually(timeout: .seconds(10)) { FileManager.default.fileExists(atPath: fixture.socket) },
                "the socket is back")
        let rebound = Date().timeIntervalSince(deleted)
        #expect(rebound < 10, "bound again after \(rebound) s")

        let newcomer = try await fixture.launch(app, count: 1).finished(within: 20)
        #expect(newcomer.status == 0, "a new app connects: \(newcomer.stdout) \(newcomer.stderr)")
        #expect(Self.locations(newcomer.lines).count == 1)
        #expect(await connected.lines(within: 10) { Self.locations($0).count > before + 2 }, "the connected app kept receiving")
        let output = connected.finish(timeout: 0)
        #expect(!output.lines.contains { $0.hasPrefix("error ") }, "the connected app saw no error: \(output.lines)")
    }

    @Test func aKilledReceiverIsLocationUnknownUntilItReturns() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let feeder = Self.repository.appendingPathComponent("scripts/nmea-feeder.py")
        let portFile = directory.url.appendingPathComponent("port").path
        let log = directory.url.appendingPathComponent("feeder.tsv").path
        var receiver = try Child(feeder, ["--rate", "2", "--port-file", portFile, "--log", log])
        defer { kill(receiver.process.processIdentifier, SIGKILL) }
        #expect(await eventually(timeout: .seconds(10)) { FileManager.default.fileExists(atPath: portFile) }, "\(receiver.stderr)")
        let port = try #require(Int(try String(contentsOfFile: portFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))

        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        try fixture.startDaemon(sources: ["nmea:tcp://127.0.0.1:\(port)"])
        let app = try fixture.makeApp("boat", bundleID: "com.example.boat")
        #expect(try fixture.ctl(["grant", "com.example.boat"]).status == 0)
        let child = try fixture.launch(app)
        #expect(await child.lines(within: 20) { Self.locations($0).count >= 2 }, "\(child.stderr)")

        kill(receiver.process.processIdentifier, SIGKILL)
        receiver.process.waitUntilExit()
        let killed = Date()
        #expect(await child.line(within: 10) { $0 == "error 0" } != nil, "the app hears locationUnknown (0): \(child.lines)")
        let heard = Date().timeIntervalSince(killed)
        #expect(heard < 5, "locationUnknown after \(heard) s")
        let before = Self.locations(child.lines).count

        receiver = try Child(feeder, ["--rate", "2", "--port", String(port), "--log", log])
        let back = Date()
        #expect(await child.lines(within: 20) { Self.locations($0).count > before }, "updates resume: \(child.lines.suffix(5))")
        let resumed = Date().timeIntervalSince(back)
        #expect(resumed < 15, "resumed \(resumed) s after the receiver returned")
        #expect(child.process.isRunning, "the app stayed up")
        let errors = child.finish(timeout: 0).lines.filter { $0.hasPrefix("error ") }
        #expect(Set(errors) == ["error 0"], "only locationUnknown: \(errors)")
    }

    @Test func aRemovedStateDirectoryAsksAgainAndIsMadeAgainWithItsKey() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        let (latitude, longitude) = (60.1699, 24.9384)
        try fixture.startDaemon(sources: ["fixed:\(latitude),\(longitude),4"])
        let app = try fixture.makeApp("helsinki", bundleID: "com.example.helsinki")
        #expect(try fixture.ctl(["grant", "com.example.helsinki"]).status == 0)
        let first = try await fixture.launch(app, count: 2).finished(within: 30)
        #expect(Self.locations(first.lines).count == 2, "\(first.stdout) \(first.stderr)")

        try FileManager.default.removeItem(at: fixture.state)
        // The authorizations went with the directory: the app is asked again, never let through.
        let asked = try await fixture.launch(app, count: 1).finished(within: 20)
        #expect(asked.lines.first == "authorization 0 accuracy 0", "\(asked.stdout) \(asked.stderr)")
        #expect(Self.locations(asked.lines).isEmpty)
        // A new grant is stored in a state directory made again, and serves the app.
        #expect(try fixture.ctl(["grant", "com.example.helsinki"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: fixture.state.path), "the state directory is back")
        let granted = try await fixture.launch(app, count: 1).finished(within: 30)
        #expect(Self.locations(granted.lines).count == 1, "\(granted.stdout) \(granted.stderr)")
        let stopped = try #require(fixture.stopDaemon(), "the daemon was running")
        #expect(stopped.exitedNormally && stopped.status == 0, "stops cleanly: \(stopped.stderr)")
        #expect(FileManager.default.fileExists(atPath: fixture.state.appendingPathComponent("last-location.sealed").path),
                "the last location was saved in a state directory made again")

        // What was saved opens with the key saved beside it, as the next launch opens it.
        let saved = try #require(try LastLocationStore(directory: fixture.state).load(), "a location was saved")
        #expect(abs(saved.latitude - latitude) < 1e-9 && abs(saved.longitude - longitude) < 1e-9, "\(saved)")
    }

    @Test func aStoreLockedByAnotherProcessNeitherStallsNorDeniesAndRefusesChangesClearly() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        try fixture.startDaemon()
        let app = try fixture.makeApp("steady", bundleID: "com.example.steady")
        #expect(try fixture.ctl(["grant", "com.example.steady"]).status == 0)
        let child = try fixture.launch(app)
        #expect(await child.lines(within: 20) { Self.locations($0).count >= 2 }, "\(child.stderr)")

        // Another process takes the database's exclusive lock for fourteen seconds: longer than a
        // change waits for it (5 s a statement, twice).
        let database = fixture.state.appendingPathComponent("authorization.sqlite").path
        let holder = try Child(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            time.sleep(14)
            connection.execute("COMMIT")
            """, database])
        defer { kill(holder.process.processIdentifier, SIGKILL) }
        #expect(await holder.line(within: 10) { $0 == "locked" } != nil, "\(holder.stderr)")
        let locked = Date()

        let refused = try fixture.ctl(["grant", "com.example.other"])
        #expect(refused.status != 0, "a change cannot be stored while the lock is held")
        #expect(refused.stderr.contains("locked by another process"), "\(refused.stderr)")
        #expect(Date().timeIntervalSince(locked) < 12, "refused after \(Date().timeIntervalSince(locked)) s")

        _ = await holder.finished(within: 25)
        let released = Date()
        #expect(await eventually(timeout: .seconds(5)) {
            child.timedLines.contains { $0.0 > released && $0.1.hasPrefix("location ") }
        }, "updates go on after the lock")
        let during = child.timedLines.filter { $0.0 >= locked && $0.0 <= released && $0.1.hasPrefix("location ") }.map(\.0)
        let gaps = zip(during, during.dropFirst()).map { $1.timeIntervalSince($0) }
        #expect(during.count >= 5, "updates kept coming while the store was locked: \(during.count)")
        #expect((gaps.max() ?? 0) < 2, "longest gap \(gaps.max() ?? 0) s")
        #expect(try fixture.ctl(["grant", "com.example.other"]).status == 0, "changes are stored once the lock is gone")
        let output = child.finish(timeout: 0)
        #expect(!output.lines.contains { $0.hasPrefix("error ") || $0.hasPrefix("authorization 2") },
                "never denied: \(output.lines.filter { !$0.hasPrefix("location ") })")
    }

    /// Whether this process may mount a size-limited tmpfs (root on Linux; CI runs as root).
    static let canMountTmpfs: Bool = {
        guard getuid() == 0, let directory = try? TemporaryDirectory() else { return false }
        defer { directory.remove() }
        guard mount("tmpfs", directory.url.path, "tmpfs", 0, "size=64k") == 0 else { return false }
        umount(directory.url.path)
        return true
    }()

    @Test(.enabled(if: canMountTmpfs, "SKIPPED: mounting a size-limited tmpfs for the disk-full test needs root"))
    func aFullDiskKeepsWhatWasSavedAndSavingResumesWhenThereIsRoom() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        try FileManager.default.createDirectory(at: fixture.state, withIntermediateDirectories: true)
        try #require(mount("tmpfs", fixture.state.path, "tmpfs", 0, "size=256k,mode=0700") == 0, "mount: \(errno)")
        defer { umount2(fixture.state.path, Int32(MNT_DETACH)) }
        let (latitude, longitude) = (-41.2865, 174.7762)
        let daemon = try fixture.startDaemon(sources: ["fixed:\(latitude),\(longitude),4"])
        let app = try fixture.makeApp("wellington", bundleID: "com.example.wellington")
        #expect(try fixture.ctl(["grant", "com.example.wellington"]).status == 0)
        let child = try fixture.launch(app)
        let sealed = fixture.state.appendingPathComponent("last-location.sealed").path
        #expect(await eventually(timeout: .seconds(20)) { FileManager.default.fileExists(atPath: sealed) }, "a first save")

        // The disk fills up.
        let filler = fixture.state.appendingPathComponent("filler").path
        #expect(FileManager.default.createFile(atPath: filler, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: filler))
        let chunk = Data(repeating: 0xA5, count: 4096)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        try handle.close()

        let refused = try fixture.ctl(["grant", "com.example.other"])
        #expect(refused.status != 0, "a change that cannot be stored is refused")
        #expect(refused.stderr.contains("full"), "and says why: \(refused.stderr)")
        #expect(daemon.waitForStderr(timeout: 20, containing: "could not save the last known location"), "a failed save is logged")
        let before = Self.locations(child.lines).count
        #expect(await child.lines(within: 10) { Self.locations($0).count > before + 2 }, "apps are served on a full disk")

        try FileManager.default.removeItem(atPath: filler)
        #expect(daemon.waitForStderr(timeout: 20, containing: "saving the last known location works again"), "saving resumes")
        #expect(try fixture.ctl(["grant", "com.example.other"]).status == 0, "changes are stored again")
        let output = child.finish(timeout: 0)
        #expect(!output.lines.contains { $0.hasPrefix("error ") }, "the app saw no error: \(output.lines.filter { !$0.hasPrefix("location ") })")
        fixture.stopDaemon()

        let saved = try #require(try LastLocationStore(directory: fixture.state).load(), "the saved location is intact")
        #expect(abs(saved.latitude - latitude) < 1e-9 && abs(saved.longitude - longitude) < 1e-9)
        let apps = try fixture.ctl(["apps", "--state-dir", fixture.state.path])
        #expect(apps.stdout.contains("com.example.wellington") && apps.stdout.contains("com.example.other"), "both grants kept: \(apps.stdout)")
    }
}
