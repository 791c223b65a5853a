import ArgumentParser
import Foundation
import LocationProtocol

// The live mode of `locationctl beacons`. The `--decode HEX` mode (beacons-core) joins this
// command: without `--decode`, it ranges.
extension LocationCtl {
    struct Beacons: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the beacons in range, live (like startRangingBeacons(satisfying:)).",
            discussion: "Needs a beacon source beside a location source, e.g. --source 'fixed:52.52,13.405;beacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0,1,2,-59@52.52001,13.405'.")

        @OptionGroup var sourceOptions: SourceOptions

        @Option(name: .long, help: "The proximity UUID to range.")
        var uuid: String?

        @Option(name: .long, help: "Only beacons with this major value.")
        var major: UInt16?

        @Option(name: .long, help: "Only beacons with this minor value (needs --major).")
        var minor: UInt16?

        @Flag(name: .long, help: "Print one JSON object per scan (JSON lines).")
        var json = false

        @Option(name: .long, help: "Stop after this many scans.")
        var count: Int?

        func validate() throws {
            if let count, count <= 0 { throw ValidationError("--count must be at least 1") }
            guard let uuid else { throw ValidationError("--uuid is required") }
            guard UUID(uuidString: uuid) != nil else { throw ValidationError("--uuid must be a UUID, got \(uuid)") }
            if minor != nil, major == nil { throw ValidationError("--minor needs --major, as CLBeaconIdentityConstraint does") }
        }

        func run() async throws {
            LocationCtl.bootstrapLogging(verbose: sourceOptions.verbose)
            guard let text = uuid, let identifier = UUID(uuidString: text) else { return }
            let ranging = BeaconRanging(
                constraint: BeaconConstraint(uuid: identifier, major: major, minor: minor),
                source: sourceOptions.source, json: json, count: count)
            try await ranging.run(engine: try sourceOptions.makeEngine())
        }
    }
}
