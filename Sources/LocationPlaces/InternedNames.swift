/// The strings that answers repeat — country names and codes, time zones, subdivision names — decoded
/// once at open (~4,400 strings, a fraction of a millisecond). An answer then retains a shared string
/// instead of allocating a new one: reverse geocoding allocates only the locality's name.
struct InternedNames: Sendable {
    let countryNames: [String]
    let countryCodes: [String]
    let timeZones: [String]
    let subdivisions: [String]

    init(_ tables: PlacesTables) {
        countryNames = (0..<tables.countryCount).map { tables.string(tables.countryNameRef($0)) }
        countryCodes = (0..<tables.countryCount).map { tables.countryCode($0) }
        timeZones = (0..<tables.timeZoneCount).map { tables.string(tables.timeZoneRef($0)) }
        subdivisions = (0..<tables.subdivisionCount).map { tables.string(tables.subdivisionNameRef($0)) }
    }

    /// The zone's identifier; `nil` for the "none" index.
    @inline(__always) func timeZone(_ index: UInt16) -> String? {
        index == PlacesTables.none16 ? nil : timeZones[Int(index)]
    }

    @inline(__always) func subdivision(_ index: UInt16) -> String? {
        index == PlacesTables.none16 ? nil : subdivisions[Int(index)]
    }
}
