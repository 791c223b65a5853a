import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The `locationd` executable as scripts and other tests drive it: a ready line, a clean exit on SIGTERM.
@Suite(.timeLimit(.minutes(1)))
struct LocationdProcessTests {
    /// A short directory: Unix socket paths are limited to 107 bytes.
    static func shortDirectory() throws -> URL {
        var template = Array("/tmp/cl-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        return URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func printsTheReadyLineAndExitsCleanlyOnASignal(signal: Int32) throws {
        let directory = try Self.shortDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.path + "/d.sock"
        let daemon = try Child(Executable.locationd, [
            "--socket", socket, "--state-dir", directory.appendingPathComponent("state").path, "--source", "fixed:52.52,13.405",
        ])
        #expect(daemon.waitForLine(timeout: 20) { $0 == "locationd: listening on \(socket)" } != nil, "stderr: \(daemon.stderr)")
        #expect(FileManager.default.fileExists(atPath: socket))

        // A second daemon on the same socket refuses to start.
        let second = try run(Executable.locationd, ["--socket", socket, "--source", "fixed:1,2"], timeout: 20)
        #expect(second.status != 0)
        #expect(second.stderr.contains("already running at \(socket)"))

        kill(daemon.process.processIdentifier, signal)
        let finished = daemon.finish(timeout: 10)
        #expect(finished.exitedNormally && finished.status == 0, "stderr: \(finished.stderr)")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed")
    }

    @Test func aBadSourceIsAUsageError() throws {
        let finished = try run(Executable.locationd, ["--source", "sim:moon"], timeout: 20)
        #expect(finished.status == 64)
        #expect(finished.stderr.contains("--source sim:moon"))
    }
}
