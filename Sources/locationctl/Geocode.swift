import ArgumentParser
import Foundation
import LocationPlaces

extension LocationCtl {
    struct Geocode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "geocode",
            abstract: "The places a text names, from the offline places database (CLGeocoder's answer).",
            discussion: """
                Understands "Place", "Place, Country", "Place, Subdivision" and alternate or ASCII \
                spellings; prints one place per line, best first. Streets and postal codes are beyond \
                the offline database. Several words need no quotes: locationctl geocode Paris, France.

                Exit status: 0 with an answer, 1 when there is none, 64 for invalid input, 69 when \
                the places database is missing or unreadable.
                """)

        @OptionGroup var options: PlacesOptions

        @Option(name: .long, help: "Print at most this many places (1-100).")
        var limit = 5

        @Argument(help: ArgumentHelp("The place to look up.", valueName: "text"))
        var words: [String] = []

        var text: String { words.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines) }

        func validate() throws {
            guard !text.isEmpty else { throw ValidationError("nothing to geocode: give a place name") }
            guard (1...100).contains(limit) else { throw ValidationError("--limit must be from 1 to 100") }
        }

        func run() throws {
            let database = try options.database()
            let places = database.search(text, preferring: nil, limit: limit)
            guard !places.isEmpty else {
                let shown = text.count > 80 ? String(text.prefix(80)) + "…" : text
                Output.error("no place matches '\(shown)'")
                throw ExitCode.failure
            }
            let locale = options.resolvedLocale
            if options.json {
                Output.line(try PlaceFormatting.json(places.map { PlaceFormatting.placemark($0, locale: locale) }))
            } else {
                for place in places { Output.line(PlaceFormatting.line(place, locale: locale)) }
            }
        }
    }
}
