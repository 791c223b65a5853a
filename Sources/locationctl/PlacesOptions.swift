import ArgumentParser
import Foundation
import LocationPlaces

/// What `reverse` and `geocode` share: output form, locale, and opening the places database.
struct PlacesOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON with the property names of CLPlacemark (nil values left out).")
    var json = false

    @Option(name: .long, help: "Name countries in this locale (e.g. de, fr_CA); default: the current locale.")
    var locale: String?

    var resolvedLocale: Locale { locale.map(Locale.init(identifier:)) ?? Locale.current }

    /// The shared database, or exit 69 (EX_UNAVAILABLE) saying why not.
    func database() throws -> PlacesDatabase {
        switch PlacesDatabase.shared {
        case .success(let database):
            return database
        case .failure(let error):
            Output.error("\(error)")
            throw ExitCode(69)
        }
    }
}
