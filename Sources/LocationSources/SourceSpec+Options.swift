import Foundation

// The `?key=value&…` options every spec scheme writes the same way, and `speed=`, the one option
// shared by all the replays (`sim:`, `gpx:`, `nmea:` logs).

// Every delimiter of a spec (`:`, `//`, `?`, `&`, `=`, `@`, a port's `:` and brackets) is found among
// Unicode scalars, never characters: a character can swallow one — a combining mark after it, or a
// prepended mark such as U+0600 before it ("x\u{600}?" is one character) — so a value written beside a
// delimiter in the canonical spelling would no longer parse as it was written.

extension SourceSpec {
    /// Splits `VALUE?OPTIONS` at the first `?`: everything after it is options, so a path cannot
    /// contain `?`.
    static func splitOptions(_ value: String) -> (base: Substring, query: Substring?) {
        let scalars = value.unicodeScalars
        guard let question = scalars.firstIndex(of: "?") else { return (Substring(value), nil) }
        return (Substring(scalars[..<question]), Substring(scalars[scalars.index(after: question)...]))
    }

    /// Refuses the options of a scheme that takes none, naming the first one given.
    static func refuseOptions(in value: String, scheme: String) throws(SourceSpecError) {
        guard let query = splitOptions(value).query else { return }
        let option = query.split(separator: "=").first.map(String.init) ?? ""
        throw .unknownOption(scheme: scheme, option: option, validOptions: [])
    }

    /// `text` split at each `separator` scalar (see the note on delimiters above).
    static func split(
        _ text: Substring, at separator: Unicode.Scalar, maxSplits: Int = .max, omittingEmpty: Bool = false
    ) -> [Substring] {
        text.unicodeScalars.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: omittingEmpty)
            .map(Substring.init)
    }

    /// The `key=value` items of an option query, keys lowercased, in order; empty items (`&&`) are
    /// ignored and values trimmed.
    ///
    /// - Throws: `.unknownOption` for a key not in `valid` (spelled as given), `.duplicateOption` for
    ///   a key given twice.
    static func parseOptions(_ query: Substring, scheme: String,
                             valid: [String]) throws(SourceSpecError) -> [(key: String, value: String)] {
        var items: [(key: String, value: String)] = []
        var seen: Set<String> = []
        for item in split(query, at: "&", omittingEmpty: true) {
            let parts = split(item, at: "=", maxSplits: 1)
            let key = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            guard valid.contains(key) else {
                throw .unknownOption(scheme: scheme, option: String(parts[0]), validOptions: valid)
            }
            guard seen.insert(key).inserted else { throw .duplicateOption(key) }
            items.append((key, value))
        }
        return items
    }

    /// `speed=N`: simulated seconds per second of the engine's clock, a positive decimal.
    static func parseSpeedOption(_ value: String) throws(SourceSpecError) -> Double {
        guard let speed = parseDecimal(value) else {
            throw .badOption(option: "speed", value: value, expected: "a positive number of simulated seconds per second")
        }
        guard speed > 0 else { throw .badSpeed(speed) }
        return speed
    }

    /// `?speed=N` for the canonical spelling, or nothing.
    static func speedQuery(_ speed: Double?) -> String {
        speed.map { "?speed=\($0)" } ?? ""
    }

    /// The replay speed the spec asks for with `speed=` (simulated seconds per loop second), or nil
    /// when it names none. `makeSource(speed:)` uses it unless given a speed of its own.
    public var speed: Double? {
        switch self {
        case .simulation(_, let speed): speed
        case .gpx(_, _, let speed): speed
        case .nmea(_, let options): options.speed
        case .fixed, .gpsd, .compass, .iio, .sensorProxy, .bluez, .beacon: nil
        }
    }
}
