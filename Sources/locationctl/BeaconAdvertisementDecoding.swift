import Foundation
import LocationProtocol
import LocationSources

/// `locationctl beacons --decode`: hexadecimal in, an iBeacon's fields out.
enum BeaconAdvertisementDecoding {
    /// The bytes of `text`: pairs of hexadecimal digits, spaces, colons and an optional `0x` ignored.
    static func bytes(_ text: String) throws(CommandFailure) -> [UInt8] {
        var digits = text.filter { !$0.isWhitespace && $0 != ":" }
        if digits.lowercased().hasPrefix("0x") { digits.removeFirst(2) }
        guard !digits.isEmpty else { throw CommandFailure("nothing to decode: give the advertisement in hexadecimal") }
        guard digits.allSatisfy(\.isHexDigit), digits.count.isMultiple(of: 2) else {
            throw CommandFailure("'\(digits.prefix(80))' is not hexadecimal bytes (two digits each)")
        }
        var result: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            result.append(UInt8(digits[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    /// Raw advertising data, else Apple's manufacturer data after the company identifier, else the
    /// same preceded by `4C 00`.
    static func decode(_ bytes: [UInt8]) -> IBeaconAdvertisement? {
        if let advertisement = IBeaconAdvertisement(advertisingData: bytes) { return advertisement }
        if let advertisement = IBeaconAdvertisement(appleManufacturerData: bytes) { return advertisement }
        if bytes.starts(with: [0x4C, 0x00]) { return IBeaconAdvertisement(appleManufacturerData: bytes.dropFirst(2)) }
        return nil
    }

    /// What `--decode` prints for `text`.
    static func describe(_ text: String, json: Bool) throws(CommandFailure) -> String {
        let input = try bytes(text)
        guard let advertisement = decode(input) else {
            throw CommandFailure("not an iBeacon advertisement (\(input.count) bytes): expected advertising data with "
                + "Apple's manufacturer data (1A FF 4C 00 02 15 …) or its 23-byte payload (02 15, UUID, major, minor, power)")
        }
        let identity = advertisement.identity
        if json {
            return "{\"uuid\":\"\(identity.uuid.uuidString)\",\"major\":\(identity.major),"
                + "\"minor\":\(identity.minor),\"measuredPower\":\(advertisement.measuredPower)}"
        }
        return """
            UUID            \(identity.uuid.uuidString)
            major           \(identity.major)
            minor           \(identity.minor)
            measured power  \(advertisement.measuredPower) dBm
            """
    }
}
