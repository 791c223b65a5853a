import Foundation
import TestSupport
import Testing

/// A real app process (`corelocation-example`: delegate + main run loop) against the in-process
/// engine, its Info.plist, the prompt policy, and `locationctl` changing its authorization.
@Suite struct EndToEndAppTests {
    private let bundleID = "com.example.printer"

    private func environment(_ directory: URL, whenInUse: String? = "Prints where you are.", policy: String? = nil) throws -> [String: String] {
        var env = [
            "CORELOCATION_STATE_DIR": directory.appendingPathComponent("state").path,
            "CORELOCATION_INFO_PLIST": try writeInfoPlist(in: directory, bundleID: bundleID, whenInUse: whenInUse).path,
            "CORELOCATION_SOURCE": "sim:walk",
        ]
        if let policy { env["CORELOCATION_PROMPT_POLICY"] = policy }
        return env
    }

    @Test(arguments: [[], ["--dispatch-main"]])
    func policyAllowGivesLocations(mainLoop: [String]) async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let env = try environment(temporary.url, policy: "allow")
        let output = try await Child(Executable.example, ["3"] + mainLoop, environment: env).finished(within: 30)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines.first == "authorization 0 accuracy 0", "told the status right after creation")
        #expect(output.lines.contains("authorization 4 accuracy 0"))
        #expect(output.lines.filter { $0.hasPrefix("location ") }.count == 3)
    }

    @Test func sourcesFileChoosesTheSourceWithoutCodeChanges() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        var env = try environment(directory, policy: "allow")
        env["CORELOCATION_SOURCE"] = nil
        let config = directory.appendingPathComponent("config/corelocation")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "# test receiver\nfixed:-33.8568,151.2153,7\n".write(
            to: config.appendingPathComponent("sources"), atomically: true, encoding: .utf8)
        env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        let output = try await Child(Executable.example, ["1"], environment: env).finished(within: 30)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines.contains("location -33.856800 151.215300 7.0"))
    }

    @Test func brokenSourcesConfigurationRunsNoSourceAndSaysWhy() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        var env = try environment(directory, policy: "allow")
        env["CORELOCATION_SOURCE"] = "sim:atlantis"
        let child = try Child(Executable.example, ["1"], environment: env)
        #expect(await child.stderr(within: 20, containing: "atlantis"))
        #expect(await child.line(within: 15) { $0 == "error 0" } != nil, "locationUnknown, not a simulated fix")
        let output = await child.finished(within: 1)
        #expect(!output.lines.contains { $0.hasPrefix("location ") })
    }

    @Test func policyDenyGivesDeniedError() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let env = try environment(temporary.url, policy: "deny")
        let output = try await Child(Executable.example, [], environment: env).finished(within: 30)
        #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
        #expect(output.lines.suffix(2) == ["authorization 2 accuracy 0", "not authorized"])
        #expect(!output.lines.contains { $0.hasPrefix("location ") })
    }

    @Test func approximatePolicyGivesCoarseLocations() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let env = try environment(temporary.url, policy: "allow,approximate")
        let output = try await Child(Executable.example, ["1"], environment: env).finished(within: 30)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines.contains("authorization 4 accuracy 1"))
        let location = try #require(output.lines.first { $0.hasPrefix("location ") })
        let accuracy = try #require(location.split(separator: " ").last.flatMap { Double($0) })
        #expect((1_000...20_000).contains(accuracy), "approximate: \(location)")
    }

    @Test func allowOnceEndsWhenTheAppExits() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let env = try environment(directory, policy: "allow-once")
        let output = try await Child(Executable.example, ["1"], environment: env).finished(within: 30)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines.contains("authorization 4 accuracy 0"))
        let after = try run(Executable.locationctl, ["apps", "--state-dir", directory.appendingPathComponent("state").path])
        #expect(after.stdout.contains("\(bundleID)  notDetermined"), "\(after.stdout)")
    }

    @Test func missingUsageDescriptionFailsWithAClearLogLine() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let env = try environment(temporary.url, whenInUse: nil, policy: "allow")
        let child = try Child(Executable.example, [], environment: env)
        #expect(await child.stderr(within: 20, containing: "NSLocationWhenInUseUsageDescription"))
        let output = await child.finished(within: 1)
        #expect(!output.lines.contains { $0.hasPrefix("authorization 4") }, "a request without the key never grants")
    }

    @Test func pendingRequestIsAnsweredByLocationctlWithinASecond() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let env = try environment(directory)
        let child = try Child(Executable.example, ["2"], environment: env)
        // Nobody can answer (no terminal, no policy): one clear line says how.
        #expect(await child.stderr(within: 20, containing: "locationctl grant \(bundleID)"))
        // Standard output and standard error are separate pipes, read separately: either can arrive first.
        #expect(await child.line(within: 5) { $0.hasPrefix("authorization ") } != nil)
        #expect(child.lines == ["authorization 0 accuracy 0"])

        let granted = Date()
        let grant = try run(Executable.locationctl, ["grant", bundleID, "--state-dir", directory.appendingPathComponent("state").path])
        #expect(grant.status == 0)
        let told = try #require(await child.line(within: 5) { $0 == "authorization 4 accuracy 0" })
        #expect(told.timeIntervalSince(granted) < 1.0, "told after \(told.timeIntervalSince(granted)) s")
        let output = await child.finished(within: 20)
        #expect(output.status == 0)
        #expect(output.lines.filter { $0.hasPrefix("location ") }.count == 2)
    }

    @Test func revokingARunningAppStopsItWithinASecond() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let env = try environment(directory, policy: "allow")
        let child = try Child(Executable.example, ["100000"], environment: env)
        #expect(await child.line(within: 20) { $0.hasPrefix("location ") } != nil)
        let revoked = Date()
        _ = try run(Executable.locationctl, ["revoke", bundleID, "--state-dir", directory.appendingPathComponent("state").path])
        let told = try #require(await child.line(within: 5) { $0 == "authorization 2 accuracy 0" })
        #expect(told.timeIntervalSince(revoked) < 1.0, "told after \(told.timeIntervalSince(revoked)) s")
        let output = await child.finished(within: 10)
        #expect(output.status == 2)
        let revokedAt = try #require(output.lines.firstIndex(of: "authorization 2 accuracy 0"))
        #expect(!output.lines[revokedAt...].contains { $0.hasPrefix("location ") }, "no location after revocation")
    }

    @Test func servicesOffReachesARunningApp() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let env = try environment(directory, policy: "allow")
        let child = try Child(Executable.example, ["100000"], environment: env)
        #expect(await child.line(within: 20) { $0.hasPrefix("location ") } != nil)
        _ = try run(Executable.locationctl, ["services", "off", "--state-dir", directory.appendingPathComponent("state").path])
        #expect(await child.line(within: 2) { $0 == "authorization 2 accuracy 0" } != nil)
        _ = await child.finished(within: 10)
    }
}
