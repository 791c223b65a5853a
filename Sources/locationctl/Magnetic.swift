import ArgumentParser
import Foundation
import LocationGeomagnetism

extension LocationCtl {
    struct Magnetic: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "magnetic",
            abstract: "The Earth's magnetic field at a point, from the World Magnetic Model (WMM2025).",
            discussion: """
                Prints the declination (the angle from true north to magnetic north, positive east: \
                what is added to a magnetic heading to give a true one), the inclination (positive \
                down) and the field: X north, Y east, Z down, H horizontal, F total, in nanotesla. \
                Negative coordinates need no "--": locationctl magnetic -33.8688 151.2093.

                The model is valid from 2025.0 to 2030.0; for a date outside, a warning is logged and \
                the nearest end of that interval is used.

                Exit status: 0 with an answer, 64 for invalid input.
                """)

        @Option(name: .long, parsing: .unconditional,
                help: ArgumentHelp("Height above the WGS84 ellipsoid in kilometres, -1 to 850 (the model's range).", valueName: "km"))
        var altitude = 0.0

        @Option(name: .long, help: ArgumentHelp("The day (YYYY-MM-DD) or a decimal year (2027.5); default: now.", valueName: "date"))
        var date: String?

        @Flag(name: .long, help: "Print JSON (degrees and nanotesla).")
        var json = false

        // `allUnrecognized`, so that "-33.8688" is a value and not an unknown option (as in `reverse`).
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Latitude and longitude in degrees.", valueName: "lat lon"))
        var coordinate: [String] = []

        mutating func validate() throws {
            _ = try Reverse.parse(coordinate)
            guard altitude.isFinite, (-1...850).contains(altitude) else {
                throw ValidationError("invalid altitude '\(altitude)': expected kilometres from -1 to 850")
            }
            _ = try decimalYear()
        }

        func decimalYear() throws -> Double {
            guard let date else {
                guard let now = DecimalYear.from(secondsSince1970: Date().timeIntervalSince1970) else {
                    throw ValidationError("the system clock is outside years 1 to 9999")
                }
                return now
            }
            guard let year = DecimalYear.parse(date) else {
                throw ValidationError("invalid date '\(date)': expected YYYY-MM-DD or a decimal year such as 2027.5")
            }
            return year
        }

        func run() throws {
            LocationCtl.bootstrapLogging(verbose: false)
            let (latitude, longitude) = try Reverse.parse(coordinate)
            let year = try decimalYear()
            let model = WorldMagneticModel.wmm2025
            let field = model.field(latitude: latitude, longitude: longitude, altitudeKilometres: altitude, decimalYear: year)
            let report = MagneticReport(model: model.name, latitude: latitude, longitude: longitude,
                                        altitudeKilometres: altitude, decimalYear: year, field: field)
            Output.line(json ? try PlaceFormatting.json(report) : report.text)
        }
    }
}

/// What `locationctl magnetic` prints, in JSON under these names.
struct MagneticReport: Encodable {
    var model: String
    var latitude: Double
    var longitude: Double
    var altitudeKilometres: Double
    /// The requested date; `modelDecimalYear` is the one evaluated (different outside the validity).
    var decimalYear: Double
    var modelDecimalYear: Double
    var withinValidity: Bool
    var declination: Double
    var inclination: Double
    var x: Double
    var y: Double
    var z: Double
    var h: Double
    var f: Double

    init(model: String, latitude: Double, longitude: Double, altitudeKilometres: Double, decimalYear: Double, field: MagneticField) {
        self.model = model
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeKilometres = altitudeKilometres
        self.decimalYear = decimalYear
        modelDecimalYear = field.decimalYear
        withinValidity = field.isWithinValidity
        declination = field.declination
        inclination = field.inclination
        x = field.north
        y = field.east
        z = field.down
        h = field.horizontal
        f = field.total
    }

    var text: String {
        func nanotesla(_ value: Double) -> String { String(format: "%9.1f nT", value) }
        let side = declination >= 0 ? "(east)" : "(west)"
        let evaluated = withinValidity ? "" : String(format: " (evaluated at %.4f, the end of the model's validity)", modelDecimalYear)
        return [
            model + String(format: " at %.6f, %.6f, %g km, %.4f", latitude, longitude, altitudeKilometres, decimalYear) + evaluated,
            String(format: "declination  %8.2f° ", declination) + side,
            String(format: "inclination  %8.2f°", inclination),
            "X (north)    " + nanotesla(x),
            "Y (east)     " + nanotesla(y),
            "Z (down)     " + nanotesla(z),
            "H            " + nanotesla(h),
            "F            " + nanotesla(f),
        ].joined(separator: "\n")
    }
}
