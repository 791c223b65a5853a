import Foundation
import TestSupport
import Testing

/// The authorization prompt on a real terminal: the app runs under `script`, which gives it a
/// pseudo-terminal, and the test types the answer as a person would.
@Suite struct TerminalPromptEndToEndTests {
    static let script = URL(fileURLWithPath: "/usr/bin/script")

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: script.path),
                   "SKIPPED LOUDLY: /usr/bin/script (util-linux) is missing, so no pseudo-terminal test"))
    func personAnswersOnTheTerminal() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let plist = try writeInfoPlist(in: directory, bundleID: "com.example.printer", whenInUse: "Prints where you are.")
        let command = "\(Executable.example.path) 1"
        let child = try Child(Self.script, ["-qfec", command, "/dev/null"], environment: [
            "CORELOCATION_STATE_DIR": directory.appendingPathComponent("state").path,
            "CORELOCATION_INFO_PLIST": plist.path,
            "CORELOCATION_SOURCE": "fixed:40.4168,-3.7038",
        ], standardInput: .pipe)
        #expect(await child.output(within: 20, containing: "Choose o, w or d"))
        #expect(child.stdoutText.contains("Prints where you are."), "the usage description is shown")
        let typed = Date()
        child.type("w\r")
        let answered = await child.line(within: 10) { $0.contains("authorization 4 accuracy 0") }
        #expect(answered != nil, "\(child.stdoutText)")
        #expect(answered.map { $0.timeIntervalSince(typed) < 2 } == true)
        let output = await child.finished(within: 10)
        #expect(output.status == 0)
        #expect(output.stdout.contains("location 40.416800 -3.703800"))
    }
}
