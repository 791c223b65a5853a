import Foundation
import TestSupport
import LocationDaemonClient
import LocationPolicy
import LocationProtocol
import Testing

/// Issue #4's acceptance: a real `locationd` on a temporary socket and several real app processes.
@Suite(.serialized) struct DaemonEndToEndTests {
    private static func locations(_ lines: [String]) -> [String] { lines.filter { $0.hasPrefix("location ") } }

    private static func accuracy(_ line: String) -> Double? { line.split(separator: " ").last.flatMap { Double($0) } }

    @Test func twoAppsReceiveExactlyWhatEachMay() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        try fixture.startDaemon(sources: ["fixed:51.501364,-0.14189,5"])
        let precise = try fixture.makeApp("precise", bundleID: "com.example.precise")
        let coarse = try fixture.makeApp("coarse", bundleID: "com.example.coarse")
        let denied = try fixture.makeApp("denied", bundleID: "com.example.denied")
        #expect(try fixture.ctl(["grant", "com.example.precise"]).status == 0)
        #expect(try fixture.ctl(["grant", "com.example.coarse", "--approximate"]).status == 0)
        #expect(try fixture.ctl(["revoke", "com.example.denied"]).status == 0)

        let a = try fixture.launch(precise, count: 2), b = try fixture.launch(coarse, count: 1)
        let c = try fixture.launch(denied, count: 1)
        let (outA, outB, outC) = (await a.finished(within: 30), await b.finished(within: 30), await c.finished(within: 30))
        #expect(outA.status == 0, "\(outA.stdout)\(outA.stderr)")
        #expect(outA.lines.first == "authorization 4 accuracy 0")
        #expect(Self.locations(outA.lines) == Array(repeating: "location 51.501364 -0.141890 5.0", count: 2))

        #expect(outB.status == 0, "\(outB.stdout)\(outB.stderr)")
        #expect(outB.lines.first == "authorization 4 accuracy 1")
        let coarseFix = try #require(Self.locations(outB.lines).first)
        #expect((1_000...20_000).contains(Self.accuracy(coarseFix) ?? 0), "approximate: \(coarseFix)")
        #expect(!coarseFix.contains("51.501364"), "the precise coordinate never reaches a reduced-accuracy app")

        #expect(outC.status == 2)
        #expect(Self.locations(outC.lines).isEmpty)
    }

    /// The callback's bound is a second, which these debug processes meet while every other suite
    /// runs; the latency itself is measured in a release build by `scripts/bench-settings.sh`.
    @Test func revokingOneAppStopsItAndTellsIt() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        try fixture.startDaemon()
        let tracker = try fixture.makeApp("tracker", bundleID: "com.example.tracker")
        let other = try fixture.makeApp("other", bundleID: "com.example.other")
        #expect(try fixture.ctl(["grant", "com.example.tracker"]).status == 0)
        #expect(try fixture.ctl(["grant", "com.example.other"]).status == 0)
        let app = try fixture.launch(tracker), bystander = try fixture.launch(other)
        #expect(await app.line(within: 20) { $0.hasPrefix("location ") } != nil, "\(app.stderr)")
        #expect(await bystander.line(within: 20) { $0.hasPrefix("location ") } != nil)

        let revoked = Date()
        try DaemonControl.apply(.revoke(app: "com.example.tracker"), socketPath: fixture.socket)
        let told = try #require(await app.line(within: 5) { $0 == "authorization 2 accuracy 0" })
        let latency = told.timeIntervalSince(revoked)
        #expect(latency < 1, "callback \(Int(latency * 1000)) ms after the revocation was sent")
        let output = await app.finished(within: 10)
        let at = try #require(output.lines.firstIndex(of: "authorization 2 accuracy 0"))
        #expect(Self.locations(Array(output.lines[at...])).isEmpty, "no location after revocation")

        // The other app is unaffected.
        let before = Self.locations(bystander.lines).count
        #expect(await bystander.lines(within: 5) { Self.locations($0).count > before })
        #expect(!bystander.lines.contains { $0.hasPrefix("authorization 2") })
        _ = await bystander.finished(within: 1)
    }

    @Test func aPendingRequestSaysOnceHowToAnswerAndAGrantAnswersIt() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        let daemon = try fixture.startDaemon()
        let waiting = try fixture.makeApp("waiting", bundleID: "com.example.waiting")
        let app = try fixture.launch(waiting, count: 1)
        #expect(await daemon.stderr(within: 20, containing: "locationctl grant com.example.waiting"), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("locationctl agent"))
        // The app prints its first callback on its own run loop; the daemon's hint can reach the test first.
        #expect(await app.line(within: 5) { $0.hasPrefix("authorization ") } != nil, "\(app.stderr)")
        #expect(app.lines == ["authorization 0 accuracy 0"], "pending: no other callback")

        #expect(try fixture.ctl(["grant", "com.example.waiting"]).status == 0)
        let output = await app.finished(within: 20)
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.lines.contains("authorization 4 accuracy 0"))
        let hints = daemon.stderr.components(separatedBy: "locationctl grant com.example.waiting").count - 1
        #expect(hints == 1, "one line, not a stream of them")
    }

    @Test func anImpostorDoesNotGetAnotherAppsAuthorization() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        try fixture.startDaemon()
        let genuine = try fixture.makeApp("genuine", bundleID: "com.example.genuine")
        #expect(try fixture.ctl(["grant", "com.example.genuine"]).status == 0)
        let real = try await fixture.launch(genuine, count: 1).finished(within: 30)
        #expect(real.status == 0, "the genuine app is served: \(real.stdout)\(real.stderr)")

        // 1. Copies the genuine Info.plist next to a different executable.
        let copycat = try fixture.makeApp("copycat", bundleID: nil)
        try FileManager.default.copyItem(
            at: genuine.deletingLastPathComponent().appendingPathComponent("Info.plist"),
            to: copycat.deletingLastPathComponent().appendingPathComponent("Info.plist"))
        // 2. Claims the identity through the environment (honoured only by the in-process engine).
        let claimant = try fixture.makeApp("claimant", bundleID: nil)
        let claimEnv = ["CORELOCATION_INFO_PLIST": genuine.deletingLastPathComponent().appendingPathComponent("Info.plist").path]

        for (executable, env) in [(copycat, [String: String]()), (claimant, claimEnv)] {
            let impostor = try fixture.launch(executable, count: 1, environment: env)
            #expect(await impostor.line(within: 20) { $0.hasPrefix("authorization ") } != nil)
            try await Task.sleep(for: .seconds(2))
            let output = await impostor.finished(within: 0)
            #expect(output.lines.first == "authorization 0 accuracy 0", "\(executable.path): \(output.stdout)")
            #expect(!output.lines.contains { $0.hasPrefix("authorization 4") })
            #expect(Self.locations(output.lines).isEmpty, "\(executable.path) got a location")
        }
        let apps = try fixture.ctl(["apps"])
        #expect(apps.stdout.contains("com.example.genuine  authorizedWhenInUse"), "\(apps.stdout)")
    }

    @Test func appsReconnectAfterTheDaemonIsKilledWithoutDuplicatesOrPhantoms() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        try fixture.startDaemon()
        let first = try fixture.makeApp("first", bundleID: "com.example.first")
        let second = try fixture.makeApp("second", bundleID: "com.example.second")
        #expect(try fixture.ctl(["grant", "com.example.first"]).status == 0)
        #expect(try fixture.ctl(["grant", "com.example.second", "--approximate"]).status == 0)
        let apps = [try fixture.launch(first, arguments: ["--timestamps"]), try fixture.launch(second, arguments: ["--timestamps"])]
        for app in apps {
            #expect(await app.line(within: 20) { $0.hasPrefix("location ") } != nil, "\(app.stderr)")
        }
        // Enough for the precise app to see a few fixes.
        _ = await apps[0].lines(within: 10) { Self.locations($0).count >= 3 }

        fixture.killDaemon()
        let counts = apps.map { Self.locations($0.lines).count }
        try await Task.sleep(for: .seconds(1))
        try fixture.startDaemon()
        let restarted = Date()
        let resumed = await apps[0].lines(within: 10) { Self.locations($0).count > counts[0] + 1 }
        #expect(resumed, "the precise app resumed on its own")
        #expect(Date().timeIntervalSince(restarted) < 5, "resumed \(Date().timeIntervalSince(restarted)) s after the restart")

        let outputs = apps.map { $0.finish(timeout: 0) }
        for output in outputs {
            let authorizations = output.lines.filter { $0.hasPrefix("authorization ") }
            #expect(authorizations.count == 1, "no repeated authorization callback: \(authorizations)")
            #expect(!output.lines.contains { $0.hasPrefix("error ") }, "no phantom error: \(output.lines)")
            let times = Self.locations(output.lines).compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "no duplicate or replayed fix: \(times)")
        }
    }

    @Test func killingAClientReleasesTheReceiverWithinASecond() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        let receiver = try NMEAServer()
        defer { receiver.close() }
        try fixture.startDaemon(sources: ["nmea:tcp://127.0.0.1:\(receiver.port)"])
        let app = try fixture.makeApp("watcher", bundleID: "com.example.watcher")
        #expect(try fixture.ctl(["grant", "com.example.watcher"]).status == 0)
        let child = try fixture.launch(app)
        let connection = try #require(receiver.accept(timeout: 20), "the daemon opened the receiver for the app")
        let killed = Date()
        kill(child.process.processIdentifier, SIGKILL)
        let closed = try #require(receiver.waitForEOF(connection, timeout: 5), "the daemon kept the receiver open")
        #expect(closed.timeIntervalSince(killed) < 1, "released after \(closed.timeIntervalSince(killed)) s")
        _ = await child.finished(within: 1)
    }

    @Test func aCorruptStoreFailsClosedAndSaysWhy() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        try FileManager.default.createDirectory(at: fixture.state, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 4096).write(to: fixture.state.appendingPathComponent("authorization.sqlite"))
        let daemon = try fixture.startDaemon(environment: ["CORELOCATION_PROMPT_POLICY": "allow"])
        let app = try fixture.makeApp("victim", bundleID: "com.example.victim")
        let output = try await fixture.launch(app, count: 1).finished(within: 20)
        #expect(output.status == 2, "\(output.stdout)")
        #expect(Self.locations(output.lines).isEmpty)
        let grant = try fixture.ctl(["grant", "com.example.victim"])
        #expect(grant.status != 0, "a broken store takes no grant")
        #expect(!grant.stderr.isEmpty)
        #expect(daemon.stderr.lowercased().contains("store"), "\(daemon.stderr)")
    }

    @Test func nothingTheDaemonWritesHoldsAPlaintextCoordinate() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        let (latitude, longitude) = (48.858222, 2.2945)
        try fixture.startDaemon(sources: ["fixed:\(latitude),\(longitude),4"])
        let app = try fixture.makeApp("eiffel", bundleID: "com.example.eiffel")
        #expect(try fixture.ctl(["grant", "com.example.eiffel"]).status == 0)
        let output = try await fixture.launch(app, count: 2).finished(within: 30)
        #expect(output.lines.contains("location 48.858222 2.294500 4.0"))
        fixture.stopDaemon()  // SIGTERM: the daemon saves its last location on the way out.

        var needles: [[UInt8]] = ["48.858", "48,858", "2.2945", "485822"].map { Array($0.utf8) }
        for value in [latitude, longitude] {
            let bits = value.bitPattern
            needles.append(withUnsafeBytes(of: bits.littleEndian, Array.init))
            needles.append(withUnsafeBytes(of: bits.bigEndian, Array.init))
            needles.append(withUnsafeBytes(of: Float(value).bitPattern.littleEndian, Array.init))
        }
        let files = FileManager.default.enumerator(at: fixture.state, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        #expect(files.contains { $0.lastPathComponent.contains("last-location") }, "the last location was persisted: \(files)")
        for file in files {
            guard let data = try? Data(contentsOf: file) else { continue }
            let bytes = [UInt8](data)
            for needle in needles {
                #expect(!Self.contains(bytes, needle), "\(file.lastPathComponent) holds \(needle)")
            }
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
