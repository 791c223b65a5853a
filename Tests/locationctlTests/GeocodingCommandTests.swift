import Foundation
import LocationPlaces
import TestSupport
import Testing

/// `locationctl reverse` and `geocode`: input handling and exit statuses of the real binary, and
/// `CLGeocoder` in a real app process (`corelocation-example --reverse`).
@Suite struct GeocodingCommandTests {
    /// A file that is not a places database, for "the database is unusable" (exit 69, `.network`).
    static func corruptDatabase() throws -> String {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let file = temporary.url.appendingPathComponent("places.bin")
        try Data("this is not a places database, just text long enough to have a header".utf8).write(to: file)
        return file.path
    }

    @Test(arguments: [
        ["reverse", "abc", "13.4"], ["reverse", "52.5"], ["reverse", "1", "2", "3"], ["reverse", "91", "0"],
        ["reverse", "-90.5", "0"], ["reverse", "0", "180.5"], ["reverse", "nan", "0"], ["reverse", "0", "inf"],
        ["reverse"], ["geocode"], ["geocode", ""], ["geocode", "   "], ["geocode", "--limit", "0", "Paris"],
        ["geocode", "--limit", "101", "Paris"],
    ])
    func invalidInputIsAUsageError(arguments: [String]) throws {
        let output = try run(Executable.locationctl, arguments)
        #expect(output.exitedNormally)
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("Error:"), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test func theUsageErrorSaysWhatIsWrong() throws {
        let latitude = try run(Executable.locationctl, ["reverse", "95", "10"])
        #expect(latitude.stderr.contains("invalid latitude '95': expected a number from -90 to 90"), "\(latitude.stderr)")
        let option = try run(Executable.locationctl, ["reverse", "1", "2", "--jsn"])
        #expect(option.status == 64)
        #expect(option.stderr.contains("unknown option '--jsn'"), "\(option.stderr)")
        let text = try run(Executable.locationctl, ["geocode", " "])
        #expect(text.stderr.contains("nothing to geocode"), "\(text.stderr)")
    }

    @Test(arguments: [["reverse", "52.52", "13.405"], ["reverse", "-33.8688", "151.2093"], ["reverse", "-33.8688", "-70.6", "--json"],
                      ["reverse", "--", "-33.8688", "151.2093"],
                      ["geocode", "Paris"], ["geocode", "--json", "Paris,", "France"]])
    func anUnusableDatabaseExitsWith69AndSaysWhy(arguments: [String]) throws {
        // Negative coordinates without "--" get this far: they are values, not options.
        let output = try run(Executable.locationctl, arguments, environment: ["CORELOCATION_PLACES_DB": try Self.corruptDatabase()])
        #expect(output.status == 69, "\(output.stderr)")
        // The reader may log the same failure first; locationctl's own line says it plainly.
        let line = output.stderr.split(separator: "\n").first { $0.hasPrefix("locationctl: ") }
        #expect(line?.contains("places database") == true, "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test func aGeocoderInAnAppWithAnUnusableDatabaseGetsANetworkErrorOnTheMainThread() throws {
        let env = ["CORELOCATION_PLACES_DB": try Self.corruptDatabase()]
        let output = try run(Executable.example, ["--reverse", "52.52", "13.405"], environment: env, timeout: 30)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines == ["error 2 main-thread true"], "CLError.network (2), handler on the main thread")
        #expect(output.stderr.contains("corelocation.geocoder"), "logged: \(output.stderr)")
        let dispatched = try run(Executable.example, ["--reverse", "-33.8688", "151.2093", "--dispatch-main"], environment: env, timeout: 30)
        #expect(dispatched.status == 0, "\(dispatched.stderr)")
        #expect(dispatched.lines.first?.hasPrefix("error 2 main-thread") == true, "\(dispatched.lines)")
    }
}

/// `locationctl reverse` and `geocode` on the shipped places database: known answers.
///
/// Enabled when the database opens (see `CLGeocoderKnownAnswerTests`).
@Suite(.enabled(if: ShippedPlacesDatabase.opens))
struct GeocodingKnownAnswerTests {
    private func json(_ output: Finished) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
    }

    @Test func reverseBerlin() throws {
        let output = try run(Executable.locationctl, ["reverse", "52.52437", "13.41053", "--locale", "en_US"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines.count == 1)
        let line = try #require(output.lines.first)
        #expect(line.hasPrefix("Berlin, "), "\(line)")
        #expect(line.hasSuffix(", Germany (DE) · Europe/Berlin · 52.52437, 13.41053"), "\(line)")
    }

    @Test func reverseJSONHasCLPlacemarksNames() throws {
        let output = try run(Executable.locationctl, ["reverse", "--json", "52.52437", "13.41053", "--locale", "de"])
        #expect(output.status == 0, "\(output.stderr)")
        let object = try #require(try json(output) as? [String: Any])
        #expect(object["locality"] as? String == "Berlin")
        #expect(object["isoCountryCode"] as? String == "DE")
        #expect(object["country"] as? String == "Deutschland")
        #expect(object["timeZone"] as? String == "Europe/Berlin")
        let location = try #require(object["location"] as? [String: Double])
        #expect(location == ["latitude": 52.52437, "longitude": 13.41053])
        let region = try #require(object["region"] as? [String: Double])
        #expect(Set(region.keys) == ["latitude", "longitude", "radius"])
        let allowed: Set<String> = [
            "name", "locality", "subAdministrativeArea", "administrativeArea", "country", "isoCountryCode", "timeZone",
            "ocean", "inlandWater", "location", "region",
        ]
        #expect(Set(object.keys).isSubset(of: allowed), "\(object.keys)")
        #expect(object["ocean"] == nil, "nil values are left out")
    }

    @Test func negativeCoordinatesNeedNoDoubleDash() throws {
        let output = try run(Executable.locationctl, ["reverse", "-33.8688", "151.2093", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let object = try #require(try json(output) as? [String: Any])
        #expect(object["isoCountryCode"] as? String == "AU")
        let santiago = try run(Executable.locationctl, ["reverse", "--json", "-33.45", "-70.66"])
        #expect((try json(santiago) as? [String: Any])?["isoCountryCode"] as? String == "CL", "\(santiago.stderr)")
    }

    @Test func aSeaPointNamesTheWater() throws {
        let output = try run(Executable.locationctl, ["reverse", "--json", "30", "-40"])
        #expect(output.status == 0, "\(output.stderr)")
        let object = try #require(try json(output) as? [String: Any])
        #expect(object["ocean"] is String)
        #expect(object["locality"] == nil && object["isoCountryCode"] == nil)
    }

    @Test func geocodeParis() throws {
        let output = try run(Executable.locationctl, ["geocode", "--json", "--limit", "3", "Paris"])
        #expect(output.status == 0, "\(output.stderr)")
        let array = try #require(try json(output) as? [[String: Any]])
        #expect((1...3).contains(array.count))
        #expect(array.first?["isoCountryCode"] as? String == "FR")
        let text = try run(Executable.locationctl, ["geocode", "Paris,", "France"])
        #expect(text.status == 0)
        #expect(text.lines.first?.contains("(FR) · Europe/Paris · 48.8") == true, "\(text.lines)")
    }

    @Test func noMatchExitsWith1() throws {
        let output = try run(Executable.locationctl, ["geocode", "Qxqxqxqx Zzyzzyzx"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("no place matches 'Qxqxqxqx Zzyzzyzx'"), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test func anAppsGeocoderAnswersOnTheMainThread() throws {
        let output = try run(Executable.example, ["--reverse", "52.52437", "13.41053"], timeout: 30)
        #expect(output.lines == ["placemark Berlin|Berlin|DE|Europe/Berlin main-thread true"], "\(output.stderr)")
    }
}

enum ShippedPlacesDatabase {
    static var opens: Bool {
        if case .success = PlacesDatabase.shared { return true }
        return false
    }
}
