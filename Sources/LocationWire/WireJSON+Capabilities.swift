import LocationProtocol

// The welcome's capabilities as names, so a log or `socat` session reads them and a later daemon can add
// one without breaking older clients (a name a client does not know is ignored).

extension WireJSON {
    static let capabilityNames: [(name: String, capability: ServiceCapabilities)] = [
        ("locations", .locations), ("headings", .headings), ("beacons", .beacons),
    ]

    static func capabilityNames(_ capabilities: ServiceCapabilities) -> [String] {
        capabilityNames.filter { capabilities.contains($0.capability) }.map(\.name)
    }

    static func capabilities(named names: [String]) -> ServiceCapabilities {
        var capabilities: ServiceCapabilities = []
        for (name, capability) in capabilityNames where names.contains(name) { capabilities.insert(capability) }
        return capabilities
    }
}
