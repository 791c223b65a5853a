import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The `locationd` executable as scripts and other tests drive it: a ready line, a clean exit on SIGTERM.
@Suite(.timeLimit(.minutes(2)))
struct LocationdProcessTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func printsTheReadyLineAndExitsCleanlyOnASignal(signal: Int32) async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let socket = directory.path + "/d.sock"
        let daemon = try Child(Executable.locationd, [
            "--socket", socket, "--state-dir", directory.appendingPathComponent("state").path, "--source", "fixed:52.52,13.405",
        ])
        #expect(await daemon.line(within: 20) { $0 == "locationd: listening on \(socket)" } != nil, "stderr: \(daemon.stderr)")
        #expect(FileManager.default.fileExists(atPath: socket))

        // A second daemon on the same socket refuses to start.
        let second = try run(Executable.locationd, ["--socket", socket, "--source", "fixed:1,2"], timeout: 20)
        #expect(second.status != 0)
        #expect(second.stderr.contains("already running at \(socket)"))

        kill(daemon.process.processIdentifier, signal)
        let finished = await daemon.finished(within: 10)
        #expect(finished.exitedNormally && finished.status == 0, "stderr: \(finished.stderr)")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed")
    }

    @Test func aBadSourceIsAUsageError() throws {
        let finished = try run(Executable.locationd, ["--source", "sim:moon"], timeout: 20)
        #expect(finished.status == 64)
        #expect(finished.stderr.contains("--source sim:moon"))
    }
}
