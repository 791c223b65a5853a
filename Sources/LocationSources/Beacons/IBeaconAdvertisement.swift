import Foundation
import LocationProtocol

/// An iBeacon advertisement: the identity a beacon broadcasts and its measured power.
///
/// An iBeacon sends Apple's manufacturer-specific data (company identifier 0x004C, little-endian
/// `4C 00` on the air) holding 23 bytes: the type `0x02`, the length of what follows `0x15` (21),
/// the proximity UUID (16 bytes), the major and minor values (2 bytes each, big-endian) and the
/// measured power, the received strength at 1 m in dBm as a signed byte. Decoding checks every byte
/// of that frame and reads nothing outside the input: anything else is nil.
public struct IBeaconAdvertisement: Sendable, Equatable {
    public var identity: BeaconIdentity
    /// The received signal strength at 1 m the beacon advertises, dBm (−128 … 127).
    public var measuredPower: Int

    /// Bluetooth SIG company identifier of Apple.
    public static let appleCompanyIdentifier: UInt16 = 0x004C
    /// The iBeacon type in Apple's manufacturer data, and the length of what follows it.
    static let iBeaconType: UInt8 = 0x02
    static let iBeaconLength: UInt8 = 0x15
    /// Bytes of Apple's manufacturer data after the company identifier: type, length, 21 bytes.
    public static let payloadLength = 23
    /// Advertising-data type of manufacturer-specific data.
    static let manufacturerSpecificType: UInt8 = 0xFF

    /// - Parameter measuredPower: clamped to a signed byte, what the frame can carry.
    public init(identity: BeaconIdentity, measuredPower: Int) {
        self.identity = identity
        self.measuredPower = Int(Int8(clamping: measuredPower))
    }

    /// Apple's manufacturer-specific payload after the company identifier 0x004C: 0x02 0x15, UUID (16),
    /// major (2, big-endian), minor (2, big-endian), measured power (1, signed dBm).
    public init?(appleManufacturerData: some Collection<UInt8>) {
        let bytes = Array(appleManufacturerData)
        guard bytes.count == Self.payloadLength, bytes[0] == Self.iBeaconType, bytes[1] == Self.iBeaconLength else {
            return nil
        }
        let uuid = UUID(uuid: (bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                               bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15], bytes[16], bytes[17]))
        let major = UInt16(bytes[18]) << 8 | UInt16(bytes[19])
        let minor = UInt16(bytes[20]) << 8 | UInt16(bytes[21])
        self.init(identity: BeaconIdentity(uuid: uuid, major: major, minor: minor),
                  measuredPower: Int(Int8(bitPattern: bytes[22])))
    }

    /// Raw advertising data: AD structures (length, type, data…); finds a manufacturer-specific (type
    /// 0xFF) structure whose company identifier is 0x004C (little-endian 4C 00) and decodes it.
    ///
    /// The data must be well formed: a structure that runs past the end makes the whole input nil.
    /// A zero length ends the significant part (the Bluetooth Core Specification's advertising data
    /// format pads the rest with zeros), so nothing after it is read.
    public init?(advertisingData: some Collection<UInt8>) {
        let bytes = Array(advertisingData)
        var found: IBeaconAdvertisement?
        var index = 0
        while index < bytes.count {
            let length = Int(bytes[index])
            if length == 0 { break }
            let end = index + 1 + length
            guard end <= bytes.count else { return nil }
            // The structure's type and data: bytes[index + 1 ..< end].
            if found == nil, bytes[index + 1] == Self.manufacturerSpecificType, length >= 3,
               bytes[index + 2] == UInt8(Self.appleCompanyIdentifier & 0xFF),
               bytes[index + 3] == UInt8(Self.appleCompanyIdentifier >> 8) {
                found = IBeaconAdvertisement(appleManufacturerData: bytes[(index + 4)..<end])
            }
            index = end
        }
        guard let found else { return nil }
        self = found
    }

    /// The 23 bytes of Apple's manufacturer data after the company identifier, as a beacon sends them.
    public var appleManufacturerData: [UInt8] {
        var bytes: [UInt8] = [Self.iBeaconType, Self.iBeaconLength]
        let uuid = identity.uuid.uuid
        withUnsafeBytes(of: uuid) { bytes.append(contentsOf: $0) }
        bytes += [UInt8(identity.major >> 8), UInt8(identity.major & 0xFF),
                  UInt8(identity.minor >> 8), UInt8(identity.minor & 0xFF),
                  UInt8(bitPattern: Int8(clamping: measuredPower))]
        return bytes
    }

    /// The manufacturer-specific AD structure alone: length 0x1A, type 0xFF, `4C 00`, the payload.
    public var advertisingStructure: [UInt8] {
        [UInt8(Self.payloadLength + 3), Self.manufacturerSpecificType,
         UInt8(Self.appleCompanyIdentifier & 0xFF), UInt8(Self.appleCompanyIdentifier >> 8)] + appleManufacturerData
    }
}
