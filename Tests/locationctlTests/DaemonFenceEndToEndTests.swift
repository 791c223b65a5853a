import Foundation
import TestSupport
import Testing

/// Region monitoring through a real `locationd` and a real app (`corelocation-example --regions`):
/// fences and their undelivered events survive `kill -9` of the daemon, and reach the app's next
/// launch once. Waits are `await`ed polls, not blocking ones: the test's minute of processes must
/// not hold one of the few threads every other test's tasks run on.
@Suite(.serialized) struct DaemonFenceEndToEndTests {
    static let outside = "fixed:52.53,13.405,5"  // 1.1 km north of the fence
    static let inside = "fixed:52.52,13.405,5"

    /// `locationctl regions --json`: the fence's state and the events waiting for the app.
    static func regions(_ fixture: DaemonFixture) throws -> (state: String?, pending: Int?) {
        let result = try fixture.ctl(["regions", "--json"])
        let apps = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        let group = (apps?.first?["groups"] as? [[String: Any]])?.first
        let fence = (group?["fences"] as? [[String: Any]])?.first
        return (fence?["state"] as? String, group?["pendingEvents"] as? Int)
    }

    /// Waits, without blocking a thread, until the child has printed a line matching `predicate`.
    static func line(_ child: Child, within seconds: Int, _ predicate: @escaping @Sendable (String) -> Bool) async -> Bool {
        await eventually(timeout: .seconds(seconds)) { child.lines.contains(where: predicate) }
    }

    @Test func fencesAndTheirEventsSurviveKillNineAndReachTheNextLaunchOnce() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.stop() }
        try fixture.startDaemon(sources: [Self.outside])
        let app = try fixture.makeApp("geo", bundleID: "com.example.geo")
        #expect(try fixture.ctl(["grant", "com.example.geo", "--always"]).status == 0)

        let first = try fixture.launch(app, arguments: ["--regions", "--monitor", "52.52,13.405,150,block"])
        #expect(await Self.line(first, within: 20) { $0 == "state block outside" }, "\(first.stdoutText)\(first.stderr)")
        #expect(first.lines.contains("started block"))
        kill(first.process.processIdentifier, SIGTERM)
        _ = await first.finished(within: 5)

        // The daemon crashes; it comes back with the device inside the fence, the app not running.
        fixture.killDaemon()
        try fixture.startDaemon(sources: [Self.inside])
        #expect(await eventually(timeout: .seconds(10)) { (try? Self.regions(fixture))?.state == "inside" })
        var seen = try Self.regions(fixture)
        #expect(seen.state == "inside")
        #expect(seen.pending == 1, "the entry waits for the app")

        // And crashes again: the kept entry is on disk.
        fixture.killDaemon()
        try fixture.startDaemon(sources: [Self.inside])
        seen = try Self.regions(fixture)
        #expect(seen.state == "inside")
        #expect(seen.pending == 1)

        let second = try fixture.launch(app, arguments: ["--regions"])
        #expect(await Self.line(second, within: 20) { $0 == "enter block" }, "\(second.stdoutText)\(second.stderr)")
        #expect(second.lines.first { $0.hasPrefix("monitored ") } == "monitored block")
        kill(second.process.processIdentifier, SIGTERM)
        let secondOutput = await second.finished(within: 5)
        #expect(secondOutput.lines.filter { $0 == "enter block" }.count == 1, "\(secondOutput.lines)")
        #expect(try Self.regions(fixture).pending == 0)

        // Delivered once: the next launch finds nothing waiting.
        let third = try fixture.launch(app, arguments: ["--regions"])
        #expect(await Self.line(third, within: 20) { $0.hasPrefix("monitored ") })
        #expect(!(await Self.line(third, within: 1) { $0 == "enter block" }), "no second delivery within a second")
        kill(third.process.processIdentifier, SIGTERM)
        let thirdOutput = await third.finished(within: 5)
        #expect(!thirdOutput.lines.contains("enter block"), "\(thirdOutput.lines)")
    }
}
