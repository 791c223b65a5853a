// libFuzzer target for the iBeacon decoder: built by scripts/fuzz-beacon.sh together with
// Sources/LocationSources/Beacons/IBeaconAdvertisement.swift and the LocationProtocol module (outside
// Sources/, so SwiftPM ignores it).
//
// Each input is decoded as raw advertising data and as Apple's manufacturer payload, from an array and
// from a slice that does not start at index 0. Besides crashes and AddressSanitizer reports, it traps
// when the two collections decode differently, a decoded payload does not re-encode to the input's
// bytes, a decoded advertising structure is not in the input as it re-encodes, or a re-encoded
// advertisement does not decode to itself.

import LocationProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func iBeaconFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    // A slice whose indices start at 1: the decoder must not assume 0-based collections.
    let padded = [0xEE] + input
    let slice = padded[1...]

    let fromAdvertising = IBeaconAdvertisement(advertisingData: input)
    precondition(IBeaconAdvertisement(advertisingData: slice) == fromAdvertising, "a slice decodes differently")
    if let advertisement = fromAdvertising {
        check(advertisement)
        let structure = advertisement.advertisingStructure
        precondition(contains(input, structure), "the decoded structure is not in the input as it re-encodes")
    }

    let fromPayload = IBeaconAdvertisement(appleManufacturerData: input)
    precondition(IBeaconAdvertisement(appleManufacturerData: slice) == fromPayload, "a slice decodes differently")
    if let advertisement = fromPayload {
        check(advertisement)
        precondition(advertisement.appleManufacturerData == input, "the payload does not re-encode to its bytes")
    }
    return 0
}

private func check(_ advertisement: IBeaconAdvertisement) {
    precondition((-128...127).contains(advertisement.measuredPower), "measured power outside a signed byte")
    precondition(advertisement.appleManufacturerData.count == IBeaconAdvertisement.payloadLength, "payload length")
    precondition(IBeaconAdvertisement(appleManufacturerData: advertisement.appleManufacturerData) == advertisement,
                 "the payload does not decode to itself")
    precondition(IBeaconAdvertisement(advertisingData: advertisement.advertisingStructure) == advertisement,
                 "the structure does not decode to itself")
}

private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
        return true
    }
    return false
}
