import Foundation

// `sensorproxy` and `bluez[:ADAPTER]`: services on the system bus.

extension SourceSpec {
    /// `ADAPTER`: a BlueZ adapter's name as it appears in its object path (`/org/bluez/hci0`), so
    /// letters, digits and `_` only.
    static func parseBlueZ(_ value: String) throws(SourceSpecError) -> SourceSpec {
        try refuseOptions(in: value, scheme: "bluez")
        let adapter = value.trimmingCharacters(in: .whitespaces)
        guard !adapter.isEmpty, adapter.utf8.count <= 64,
              adapter.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") })
        else {
            throw .badOption(option: "adapter", value: adapter, expected: "an adapter name such as hci0")
        }
        return .bluez(adapter: adapter)
    }
}
