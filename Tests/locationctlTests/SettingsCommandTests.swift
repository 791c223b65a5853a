import Foundation
import LocationPolicyAdapters
import LocationProtocol
import TestSupport
import Testing

/// `locationctl apps|grant|revoke|reset|services` against a real store directory.
@Suite struct SettingsCommandTests {
    private func apps(_ state: URL) throws -> [String: Any] {
        let output = try run(Executable.locationctl, ["apps", "--json", "--state-dir", state.path])
        #expect(output.status == 0, "\(output.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    private func status(of app: String, in state: URL) throws -> String? {
        let list = try #require(try apps(state)["apps"] as? [[String: Any]])
        return list.first { $0["id"] as? String == app }?["status"] as? String
    }

    @Test func grantRevokeResetAndServicesRoundTrip() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let state = temporary.url.appendingPathComponent("state")
        let ctl = { (arguments: [String]) throws -> Finished in
            try run(Executable.locationctl, arguments + ["--state-dir", state.path])
        }
        #expect(try ctl(["grant", "com.example.maps", "--approximate"]).status == 0)
        #expect(try status(of: "com.example.maps", in: state) == "authorizedWhenInUse")
        let list = try #require(try apps(state)["apps"] as? [[String: Any]])
        #expect(list.first?["accuracy"] as? String == "reducedAccuracy")

        #expect(try ctl(["grant", "com.example.maps", "--always"]).status == 0)
        #expect(try status(of: "com.example.maps", in: state) == "authorizedAlways")

        #expect(try ctl(["revoke", "com.example.maps"]).status == 0)
        #expect(try status(of: "com.example.maps", in: state) == "denied")

        #expect(try ctl(["services", "off"]).status == 0)
        #expect(try apps(state)["servicesEnabled"] as? Bool == false)
        #expect(try ctl(["grant", "/usr/bin/tracker"]).status == 0)
        #expect(try status(of: "/usr/bin/tracker", in: state) == "denied", "services off denies every app")
        #expect(try ctl(["services", "on"]).status == 0)
        #expect(try status(of: "/usr/bin/tracker", in: state) == "authorizedWhenInUse", "on restores each app's status")

        #expect(try ctl(["reset", "com.example.maps"]).status == 0)
        #expect(try status(of: "com.example.maps", in: state) == nil)
        let missing = try ctl(["reset", "com.example.maps"])
        #expect(missing.status != 0 && missing.stderr.contains("no app com.example.maps"))
        #expect(try ctl(["reset", "--all"]).status == 0)
        #expect((try apps(state)["apps"] as? [Any])?.isEmpty == true)

        let attributes = try FileManager.default.attributesOfItem(atPath: state.appendingPathComponent("authorization.sqlite").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    /// `apps` shows a temporary full accuracy grant while its process runs, and `grant --approximate`
    /// or `--precise` sets the accuracy (ending the grant).
    @Test func appsShowsATemporaryGrantAndGrantSetsTheAccuracy() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let state = temporary.url.appendingPathComponent("state")
        let ctl = { (arguments: [String]) throws -> Finished in
            try run(Executable.locationctl, arguments + ["--state-dir", state.path])
        }
        #expect(try ctl(["grant", "com.example.maps", "--approximate"]).status == 0)
        #expect(try ctl(["grant", "com.example.dead", "--approximate"]).status == 0)
        // This test process asked (and runs); the other app's asker has exited.
        let store = SQLiteAuthorizationStore(directory: state)
        try store.update { database in
            database.apps["com.example.maps"]?.temporaryFullAccuracy = TemporaryFullAccuracy(
                purposeKey: "Navigation", process: ProcessStamp.current())
            database.apps["com.example.dead"]?.temporaryFullAccuracy = TemporaryFullAccuracy(
                purposeKey: "Navigation", process: ProcessStamp(pid: Int32.max - 1, startTime: 1))
        }
        let list = try #require(try apps(state)["apps"] as? [[String: Any]])
        let maps = try #require(list.first { $0["id"] as? String == "com.example.maps" })
        #expect(maps["accuracy"] as? String == "fullAccuracy")
        let grant = try #require(maps["temporaryFullAccuracy"] as? [String: Any])
        #expect(grant["purposeKey"] as? String == "Navigation")
        #expect(grant["pid"] as? Int == Int(getpid()))
        let dead = try #require(list.first { $0["id"] as? String == "com.example.dead" })
        #expect(dead["accuracy"] as? String == "reducedAccuracy" && dead["temporaryFullAccuracy"] == nil)
        let text = try ctl(["apps"]).stdout
        #expect(text.contains("com.example.maps  authorizedWhenInUse  (precise until pid \(getpid()) exits, purpose Navigation)"))
        #expect(text.contains("com.example.dead  authorizedWhenInUse  (approximate)"))

        #expect(try ctl(["grant", "com.example.maps", "--precise"]).status == 0)
        let precise = try #require((try apps(state)["apps"] as? [[String: Any]])?.first { $0["id"] as? String == "com.example.maps" })
        #expect(precise["accuracy"] as? String == "fullAccuracy" && precise["temporaryFullAccuracy"] == nil)
        #expect(try ctl(["grant", "com.example.maps", "--approximate"]).status == 0)
        #expect(try store.read().apps["com.example.maps"]?.accuracy == .reducedAccuracy)
        let both = try ctl(["grant", "com.example.maps", "--approximate", "--precise"])
        #expect(both.status != 0 && both.stderr.contains("contradict"))
    }

    @Test func corruptStoreIsReportedNotOverwritten() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let state = temporary.url
        let file = state.appendingPathComponent("authorization.sqlite")
        try Data("{not json".utf8).write(to: file)
        let output = try run(Executable.locationctl, ["grant", "com.example.maps", "--state-dir", state.path])
        #expect(output.exitedNormally && output.status == 1)
        #expect(output.stderr.contains(file.path) && output.stderr.contains("corrupt"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "{not json")
        let apps = try run(Executable.locationctl, ["apps", "--state-dir", state.path])
        #expect(apps.exitedNormally && apps.status == 1, "listing a corrupt store fails too")
    }
}
