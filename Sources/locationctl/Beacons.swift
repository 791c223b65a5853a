import ArgumentParser
import Foundation
import LocationProtocol

extension LocationCtl {
    struct Beacons: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "beacons",
            abstract: "iBeacons: range them live, or decode an advertisement.",
            discussion: """
                Without --decode, ranges the beacons with --uuid (and --major, --minor) live, like \
                startRangingBeacons(satisfying:): a table redrawn each scan (about once a second), plain \
                lines when not on a terminal, or --json lines, one object per scan. It needs a beacon \
                source beside a location source, e.g. --source \
                'fixed:52.52,13.405;beacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0,1,2,-59@52.52002,13.405'.

                --decode HEX decodes one iBeacon advertisement and prints its proximity UUID, major, \
                minor and measured power (the received strength at 1 m the beacon advertises). HEX is \
                raw advertising data (AD structures: length, type, data, e.g. what BlueZ's btmon or \
                hcidump shows), or Apple's manufacturer data with or without its company identifier \
                4C00 (02 15, the UUID, major, minor and power); spaces and colons are ignored. \
                Anything that is not an iBeacon advertisement is an error (exit status 1).
                """)

        @OptionGroup var sourceOptions: SourceOptions

        @Option(name: .long, help: "The proximity UUID to range.")
        var uuid: String?

        @Option(name: .long, help: "Only beacons with this major value.")
        var major: UInt16?

        @Option(name: .long, help: "Only beacons with this minor value (needs --major).")
        var minor: UInt16?

        @Option(name: .long, help: "Stop after this many scans.")
        var count: Int?

        @Option(name: .long, help: ArgumentHelp("Decode one iBeacon advertisement given in hexadecimal.", valueName: "HEX"))
        var decode: String?

        @Flag(name: .long, help: "Print JSON: one object per scan (uuid, major, minor, proximity, accuracy, rssi, timestamp of each beacon); with --decode, the advertisement (uuid, major, minor, measuredPower).")
        var json = false

        func validate() throws {
            guard decode == nil else { return }
            if let count, count <= 0 { throw ValidationError("--count must be at least 1") }
            guard let uuid else { throw ValidationError("give the UUID to range (--uuid UUID) or an advertisement to decode (--decode HEX)") }
            guard UUID(uuidString: uuid) != nil else { throw ValidationError("--uuid must be a UUID, got \(uuid)") }
            if minor != nil, major == nil { throw ValidationError("--minor needs --major, as CLBeaconIdentityConstraint does") }
        }

        func run() async throws {
            if let decode {
                print(try BeaconAdvertisementDecoding.describe(decode, json: json))
                return
            }
            LocationCtl.bootstrapLogging(verbose: sourceOptions.verbose)
            guard let text = uuid, let identifier = UUID(uuidString: text) else { return }
            let ranging = BeaconRanging(
                constraint: BeaconConstraint(uuid: identifier, major: major, minor: minor),
                source: sourceOptions.source, json: json, count: count)
            try await ranging.run(engine: try sourceOptions.makeEngine())
        }
    }
}
