import Foundation

/// A country's name in a locale: the locale's own name for the ISO code (Foundation's ICU data, so
/// `de` gives "Deutschland"), else the database's English name.
enum CountryName {
    static func localized(isoCode: String?, englishName: String?, locale: Locale) -> String? {
        guard let isoCode, !isoCode.isEmpty,
              let name = locale.localizedString(forRegionCode: isoCode),
              // ICU answers an unknown code with the code itself (or "Unknown Region" for ZZ).
              !name.isEmpty, name.uppercased() != isoCode.uppercased(), isoCode.uppercased() != "ZZ"
        else { return englishName }
        return name
    }
}
