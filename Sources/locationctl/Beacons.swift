import ArgumentParser
import Foundation

extension LocationCtl {
    struct Beacons: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "iBeacons: decode an advertisement.",
            discussion: """
                --decode HEX decodes one iBeacon advertisement and prints its proximity UUID, major, \
                minor and measured power (the received strength at 1 m the beacon advertises). HEX is \
                raw advertising data (AD structures: length, type, data, e.g. what BlueZ's btmon or \
                hcidump shows), or Apple's manufacturer data with or without its company identifier \
                4C00 (02 15, the UUID, major, minor and power); spaces and colons are ignored. \
                Anything that is not an iBeacon advertisement is an error (exit status 1).
                """)

        @Option(name: .long, help: ArgumentHelp("Decode one iBeacon advertisement given in hexadecimal.", valueName: "HEX"))
        var decode: String?

        @Flag(name: .long, help: "Print JSON (uuid, major, minor, measuredPower).")
        var json = false

        func run() async throws {
            guard let decode else {
                throw ValidationError("give an advertisement to decode: --decode HEX")
            }
            print(try BeaconAdvertisementDecoding.describe(decode, json: json))
        }
    }
}
