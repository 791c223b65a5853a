import ArgumentParser
import Foundation
import LocationEngine
import LocationProtocol

extension LocationCtl {
    struct Locate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "locate",
            abstract: "Print one fix (like requestLocation()) and exit.")

        @OptionGroup var sourceOptions: SourceOptions

        @Option(name: .long, help: "Desired accuracy in metres (default: the best available).")
        var accuracy: Double?

        @Flag(name: .long, help: "Print the fix as one JSON object.")
        var json = false

        func validate() throws {
            if let accuracy, !(accuracy.isFinite && accuracy > 0) {
                throw ValidationError("--accuracy must be a positive number of metres")
            }
        }

        func run() async throws {
            LocationCtl.bootstrapLogging(verbose: sourceOptions.verbose)
            let engine = try sourceOptions.makeEngine()
            let request = UpdateRequest(mode: .single, desiredAccuracy: accuracy ?? -1)
            for await event in engine.events(request) {
                switch event {
                case .locations(let fixes):
                    guard let fix = fixes.last else { continue }
                    print(json ? FixFormatting.json(fix) : FixFormatting.line(fix))
                    return
                case .failed(.locationUnknown):
                    throw CommandFailure("no location within \(Int(engine.tuning.singleRequestTimeout)) s from \(sourceOptions.source)")
                default:
                    continue
                }
            }
        }
    }
}
