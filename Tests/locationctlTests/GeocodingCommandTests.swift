import Foundation
import Testing

/// `locationctl reverse` and `geocode`: input handling and exit statuses of the real binary, and
/// `CLGeocoder` in a real app process (`corelocation-example --reverse`).
@Suite struct GeocodingCommandTests {
    /// A file that is not a places database, for "the database is unusable" (exit 69, `.network`).
    static func corruptDatabase() throws -> String {
        let file = try temporaryDirectory().appendingPathComponent("places.bin")
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
        let text = try run(Executable.locationctl, ["geocode", " "])
        #expect(text.stderr.contains("nothing to geocode"), "\(text.stderr)")
    }

    @Test(arguments: [["reverse", "52.52", "13.405"], ["reverse", "-33.8688", "151.2093"], ["reverse", "-33.8688", "-70.6", "--json"],
                      ["geocode", "Paris"], ["geocode", "--json", "Paris,", "France"]])
    func anUnusableDatabaseExitsWith69AndSaysWhy(arguments: [String]) throws {
        // Negative coordinates without "--" get this far: they are values, not options.
        let output = try run(Executable.locationctl, arguments, environment: ["CORELOCATION_PLACES_DB": try Self.corruptDatabase()])
        #expect(output.status == 69, "\(output.stderr)")
        #expect(output.stderr.hasPrefix("locationctl: "), "\(output.stderr)")
        #expect(output.stderr.contains("places database"), "\(output.stderr)")
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
