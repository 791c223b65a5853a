import ArgumentParser
import Foundation
import LocationCore
import LocationEngine
import LocationSources

/// Where fixes come from: `--source` and `--speed`, shared by `locate` and `watch`.
struct SourceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Location source: " + SourceSpec.Scheme.allCases.map(\.usage).joined(separator: ", ") + ".",
        discussion: "Sources:\n" + SourceSpec.Scheme.allCases.map { "  \($0.usage): \($0.summary)" }.joined(separator: "\n")
            + "\nBuilt-in routes:\n" + SourceSpec.routes.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n")))
    var source: String = "sim:city-drive"

    @Option(name: .long, help: "Replay speed-up for simulated and recorded sources (60 = one minute per second).")
    var speed: Double = 1

    @Flag(name: .long, help: "Log what the engine does to standard error.")
    var verbose = false

    func validate() throws {
        guard speed.isFinite, speed > 0 else { throw ValidationError("--speed must be a positive number, got \(speed)") }
    }

    /// Builds the source, failing with a one-line message (unreadable or malformed GPX, …).
    func makeEngine() throws -> LocationEngine {
        do {
            let made = try SourceSpec(source).makeSource(speed: speed)
            return LocationEngine(loop: RealtimeLoop(), sources: [made])
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}

/// A failure reported as one line on standard error with exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
