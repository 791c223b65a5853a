import Foundation
import LocationProtocol

extension SourceSpec {
    /// `UUID,MAJOR,MINOR,POWER@LAT,LON`.
    static func parseBeacon(_ value: String, spec: String) throws(SourceSpecError) -> SourceSpec {
        try refuseOptions(in: value, scheme: "beacon")
        let halves = split(Substring(value), at: "@")
        guard halves.count == 2 else { throw .wrongFieldCount(spec: spec, usage: Scheme.beacon.usage) }
        let fields = split(halves[0], at: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let place = split(halves[1], at: ",")
        guard fields.count == 4, place.count == 2 else { throw .wrongFieldCount(spec: spec, usage: Scheme.beacon.usage) }
        guard let uuid = UUID(uuidString: fields[0]) else { throw .malformedUUID(fields[0]) }
        guard let major = UInt16(fields[1]) else { throw .beaconValueOutOfRange(field: "major", value: fields[1]) }
        guard let minor = UInt16(fields[2]) else { throw .beaconValueOutOfRange(field: "minor", value: fields[2]) }
        guard let power = Int8(fields[3]) else { throw .beaconValueOutOfRange(field: "measured power", value: fields[3]) }
        guard let latitude = parseDecimal(place[0]) else {
            throw .malformedNumber(field: "latitude", value: place[0].trimmingCharacters(in: .whitespaces))
        }
        guard let longitude = parseDecimal(place[1]) else {
            throw .malformedNumber(field: "longitude", value: place[1].trimmingCharacters(in: .whitespaces))
        }
        guard abs(latitude) <= 90 else { throw .coordinateOutOfRange(field: "latitude", value: latitude) }
        guard abs(longitude) <= 180 else { throw .coordinateOutOfRange(field: "longitude", value: longitude) }
        return .beacon(SimulatedBeacon(identity: BeaconIdentity(uuid: uuid, major: major, minor: minor),
                                       measuredPower: Int(power), latitude: latitude, longitude: longitude))
    }

    static func beaconDescription(_ beacon: SimulatedBeacon) -> String {
        let identity = beacon.identity
        return "beacon:\(identity.uuid.uuidString),\(identity.major),\(identity.minor),\(beacon.measuredPower)@\(beacon.latitude),\(beacon.longitude)"
    }

    /// The sources of several specs, as one configuration: one source a spec, except that every
    /// `beacon:` spec together makes one `SimulatedBeaconScanner`, placed where the first simulated
    /// route (`sim:`) or fixed point (`fixed:`) among the others is.
    ///
    /// - Parameters:
    ///   - speed: as for ``makeSource(speed:)``.
    ///   - skip: called for a spec that cannot be made into a source, which is then left out; when
    ///     nil, the first such error is thrown instead.
    /// - Throws: what ``makeSource(speed:)`` throws; `SourceSpecError.beaconWithoutPosition` when
    ///   there are `beacon:` specs but nothing to place the device.
    public static func makeSources(_ specs: [SourceSpec], speed: Double? = nil,
                                   skipping skip: ((SourceSpec, any Error) -> Void)? = nil) throws -> [any LocationSource] {
        var sources: [any LocationSource] = []
        var beaconSpecs: [SourceSpec] = []
        var beacons: [SimulatedBeacon] = []
        for spec in specs {
            if case .beacon(let beacon) = spec {
                beaconSpecs.append(spec)
                beacons.append(beacon)
                continue
            }
            do {
                sources.append(try spec.makeSource(speed: speed))
            } catch {
                guard let skip else { throw error }
                skip(spec, error)
            }
        }
        guard let first = beaconSpecs.first else { return sources }
        guard let device = sources.lazy.compactMap(SimulatedBeaconScanner.devicePosition(of:)).first else {
            guard let skip else { throw SourceSpecError.beaconWithoutPosition }
            skip(first, SourceSpecError.beaconWithoutPosition)
            return sources
        }
        let name = beaconSpecs.map(\.description).joined(separator: ";")
        sources.append(SimulatedBeaconScanner(beacons: beacons, device: device, name: name))
        return sources
    }
}
