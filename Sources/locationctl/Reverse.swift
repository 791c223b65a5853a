import ArgumentParser
import Foundation
import LocationPlaces

extension LocationCtl {
    struct Reverse: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reverse",
            abstract: "The place at a coordinate, from the offline places database (CLGeocoder's answer).",
            discussion: """
                Prints the country whose border contains the point, the nearest populated place in \
                that country, its subdivision and time zone; at sea the ocean or inland water, and \
                the country only within 12 nautical miles of its coast. Negative coordinates need \
                no "--": locationctl reverse -33.8688 151.2093.

                Exit status: 0 with an answer, 1 when there is none, 64 for invalid input, 69 when \
                the places database is missing or unreadable.
                """)

        @OptionGroup var options: PlacesOptions

        // `allUnrecognized`, so that "-33.8688" is a value and not an unknown option.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Latitude and longitude in degrees.", valueName: "lat lon"))
        var coordinate: [String] = []

        mutating func validate() throws {
            _ = try Self.parse(coordinate)
        }

        /// Latitude −90…90 and longitude −180…180, both finite numbers. A "--" (the habit from other
        /// tools) is accepted and ignored; anything else starting with "--" is an unknown option.
        static func parse(_ arguments: [String]) throws -> (latitude: Double, longitude: Double) {
            let values = arguments.filter { $0 != "--" }
            if let option = values.first(where: { $0.hasPrefix("--") }) {
                throw ValidationError("unknown option '\(option)'")
            }
            guard values.count == 2 else {
                throw ValidationError("expected a latitude and a longitude, got \(values.count) value(s): \(values.joined(separator: " "))")
            }
            guard let latitude = Double(values[0]), latitude.isFinite, (-90...90).contains(latitude) else {
                throw ValidationError("invalid latitude '\(values[0])': expected a number from -90 to 90")
            }
            guard let longitude = Double(values[1]), longitude.isFinite, (-180...180).contains(longitude) else {
                throw ValidationError("invalid longitude '\(values[1])': expected a number from -180 to 180")
            }
            return (latitude, longitude)
        }

        func run() throws {
            let (latitude, longitude) = try Self.parse(coordinate)
            let database = try options.database()
            guard let place = database.reverseGeocode(latitude: latitude, longitude: longitude) else {
                Output.error("no place found at \(latitude), \(longitude)")
                throw ExitCode.failure
            }
            let locale = options.resolvedLocale
            Output.line(options.json
                ? try PlaceFormatting.json(PlaceFormatting.placemark(place, locale: locale))
                : PlaceFormatting.line(place, locale: locale))
        }
    }
}
