import ArgumentParser
import Foundation
import Logging

/// `locationctl`: the command line of the location system.
///
/// `locate` and `watch` read the engine directly, as gpsd's own clients do: this is the
/// system's administration tool, not an app, so it needs no per-app authorization.
@main
struct LocationCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locationctl",
        abstract: "Locate, watch and administer the Core Location system for Linux.",
        version: "0.1.0",
        // Every subcommand names itself: ArgumentParser derives a missing name with `String(describing:)`, whose
        // first dynamic casts scan every protocol conformance in the binary, ~1.3 ms of each start.
        subcommands: [
            Locate.self, Watch.self, Decode.self, Apps.self, Grant.self, Revoke.self, Reset.self, Services.self,
            Agent.self, Reverse.self, Geocode.self, Regions.self, Map.self, Energy.self, Magnetic.self, Beacons.self,
        ])

    static func bootstrapLogging(verbose: Bool) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .debug : .warning
            return handler
        }
    }
}
