import Foundation

extension PlaceDescription {
    /// The country's name in `locale`, as `CLGeocoder` and `locationctl` give it: the locale's own name
    /// for the ISO code (Foundation's ICU data, so `de` gives "Deutschland"), else the database's English
    /// name.
    public func country(in locale: Locale) -> String? {
        guard let isoCode = isoCountryCode, !isoCode.isEmpty, isoCode.uppercased() != "ZZ",
              let name = locale.localizedString(forRegionCode: isoCode),
              // ICU answers an unknown code with the code itself (or "Unknown Region" for ZZ).
              !name.isEmpty, name.uppercased() != isoCode.uppercased()
        else { return country }
        return name
    }
}
