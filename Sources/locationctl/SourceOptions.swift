import ArgumentParser
import Foundation
import LocationCore
import LocationEngine
import LocationSources

/// Where fixes come from: `--source` and `--speed`, shared by `locate` and `watch`.
struct SourceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Location source: " + SourceSpec.Scheme.allCases.map(\.usage).joined(separator: ", ")
            + "; several separated by ';'.",
        discussion: "Sources:\n" + SourceSpec.Scheme.allCases.map { "  \($0.usage): \($0.summary)" }.joined(separator: "\n")
            + "\nBuilt-in routes:\n" + SourceSpec.routes.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n")))
    var source: String = "sim:city-drive"

    @Option(name: .long, help: ArgumentHelp(
        "Replay speed-up for simulated and recorded sources (60 = one minute per second).",
        discussion: "The same as speed=N in the source spec (sim:walk?speed=60); when both are given, --speed wins. Default: the spec's speed=, else 1."))
    var speed: Double?

    @Flag(name: .long, help: "Log what the engine does to standard error.")
    var verbose = false

    func validate() throws {
        if let speed, !(speed.isFinite && speed > 0) {
            throw ValidationError("--speed must be a positive number, got \(speed)")
        }
    }

    /// Builds the sources (`--speed` over the specs' `speed=`): one spec, or several separated by
    /// `;` as in `CORELOCATION_SOURCE` (`fixed:48.85,2.35;compass:0`), failing with a one-line
    /// message (unreadable or malformed GPX, …).
    func makeSources() throws -> [any LocationSource] {
        do {
            return try SourceSpec.makeSources(source.split(separator: ";").map { try SourceSpec(String($0)) }, speed: speed)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// An engine on the wall clock running the sources.
    func makeEngine() throws -> LocationEngine {
        LocationEngine(loop: RealtimeLoop(), sources: try makeSources())
    }
}

/// A failure reported as one line on standard error with exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
