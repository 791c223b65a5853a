import Foundation

/// A circular fence drawn by `locationctl map`: `LAT,LON,RADIUS[,ID]` (degrees, metres).
struct MapFence: Equatable, Sendable {
    var latitude: Double
    var longitude: Double
    /// Metres on the ground.
    var radius: Double
    var identifier: String

    /// Parses `LAT,LON,RADIUS[,ID]`; without an identifier the fence is called `defaultIdentifier`.
    ///
    /// - Throws: `MapInputError` naming the field that is wrong.
    init(parsing text: String, defaultIdentifier: String) throws(MapInputError) {
        let fields = text.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count >= 3 else { throw MapInputError("fence '\(text)' is not LAT,LON,RADIUS[,ID]") }
        func number(_ index: Int, _ name: String) throws(MapInputError) -> Double {
            // Plain decimals only: `Double` would also take "nan", "inf" and hexadecimal.
            let field = fields[index]
            guard !field.isEmpty, field.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
                  let value = Double(field), value.isFinite else {
                throw MapInputError("fence '\(text)': \(name) '\(field)' is not a number")
            }
            return value
        }
        latitude = try number(0, "latitude")
        longitude = try number(1, "longitude")
        radius = try number(2, "radius")
        guard abs(latitude) <= 90 else { throw MapInputError("fence '\(text)': latitude must be within -90...90") }
        guard abs(longitude) <= 180 else { throw MapInputError("fence '\(text)': longitude must be within -180...180") }
        guard radius > 0, radius <= 1_000_000 else {
            throw MapInputError("fence '\(text)': radius must be more than 0 and at most 1000000 m")
        }
        identifier = fields.count == 4 && !fields[3].isEmpty ? fields[3] : defaultIdentifier
    }

    init(latitude: Double, longitude: Double, radius: Double, identifier: String) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.identifier = identifier
    }

    /// The fences of a file: one `LAT,LON,RADIUS[,ID]` a line; blank lines and `#` comments ignored.
    /// Fences without an identifier are called `fence-N`, N counting from `firstNumber`.
    static func parseFile(_ text: String, name: String, firstNumber: Int = 1) throws(MapInputError) -> [MapFence] {
        var fences: [MapFence] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = (line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                .trimmingCharacters(in: .whitespaces)
            guard !content.isEmpty else { continue }
            do {
                fences.append(try MapFence(parsing: content, defaultIdentifier: "fence-\(firstNumber + fences.count)"))
            } catch {
                throw MapInputError("\(name):\(index + 1): \(error.description)")
            }
        }
        return fences
    }
}

/// Input to `locationctl map` that cannot be used, said in one line.
struct MapInputError: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
