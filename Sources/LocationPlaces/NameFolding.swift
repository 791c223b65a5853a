import Foundation

/// The folded form of a name, as the generator writes `NIDX` keys (docs/places-database.md, "Folded
/// keys"; `fold` in scripts/places/build-places-db.py — the two must agree): Unicode NFKD, nonspacing
/// marks dropped, lower-cased, a few letters that do not decompose spelled out, and every run of
/// characters that are not letters or digits made one space, trimmed.
enum NameFolding {
    static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var gap = false
        for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                for mapped in special(lower) {
                    if isLetterOrDigit(mapped) {
                        if gap, !out.isEmpty { out.append(" ") }
                        out.append(mapped)
                        gap = false
                    } else {
                        gap = true
                    }
                }
            }
        }
        return String(out)
    }

    private static func special(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        switch scalar {
        case "ß": ["s", "s"]
        case "æ": ["a", "e"]
        case "œ": ["o", "e"]
        case "ø": ["o"]
        case "đ", "ð": ["d"]
        case "ł": ["l"]
        case "þ": ["t", "h"]
        case "ı": ["i"]
        default: [scalar]
        }
    }

    /// Python's `str.isalnum` for one character: a letter (L*) or a number (N*).
    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            false
        }
    }
}
